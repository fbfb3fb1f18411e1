import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, type Storage } from './storage.js';

/** Bytes buffered before a write to the file: fewer, larger writes than the socket's 64 KiB reads. */
const WRITE_CHUNK = 1024 * 1024;

async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const isMissing = (err: NodeJS.ErrnoException) => err.code === 'ENOENT' || err.code === 'ENOTDIR';

/**
 * Keeps objects as files under one folder (DATA_DIR/uploads), a key's segments as sub-folders. A new
 * object is written under a temporary hidden name beside its place and renamed into it, so a reader
 * finds either nothing or the whole file; keys never start with a dot, so no key names a temporary.
 */
export function localDiskStorage(root: string): Storage {
  const fileOf = (key: string) => path.join(root, ...checkKey(key).split('/'));
  return {
    async put(key, content) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.part`);
      try {
        // `flush` syncs the file before it is closed, and the folder is synced after the rename: an object
        // reported stored survives a crash of the machine, as the database row naming it does.
        await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, createWriteStream(temporary, { flags: 'wx', flush: true, highWaterMark: WRITE_CHUNK }));
        await fs.rename(temporary, file);
        await syncFolder(path.dirname(file));
      } catch (err) {
        await fs.rm(temporary, { force: true });
        throw err;
      }
    },

    async get(key) {
      const handle = await fs.open(fileOf(key), 'r').catch((err: NodeJS.ErrnoException) => {
        if (isMissing(err)) return null;
        throw err;
      });
      if (!handle) return null;
      // Size and content come from the same open file, even if the name is replaced meanwhile.
      const stat = await handle.stat().catch(async (err) => { await handle.close(); throw err; });
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      return { size: stat.size, content: handle.createReadStream() };
    },

    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
  };
}
