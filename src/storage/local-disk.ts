import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_FOLDER_MODE } from '../security/private-modes.js';
import { checkKey, type Storage } from './storage.js';
import { syncedFileWriter } from './synced-file.js';

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
      await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.part`);
      const writer = syncedFileWriter(temporary);
      try {
        // The file is synced before it is closed, and the folder after the rename: an object reported
        // stored survives a crash of the machine, as the database row naming it does.
        await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, writer);
        await fs.rename(temporary, file);
        await syncFolder(path.dirname(file));
      } catch (err) {
        // A content that fails at once fails the pipeline before the writer has made its file: removed
        // then, the file would be made after and stay. Once the writer is closed, the file is made or never will be.
        if (!writer.closed) await new Promise((closed) => writer.once('close', closed));
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
