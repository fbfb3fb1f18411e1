import fs, { type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { PRIVATE_FILE_MODE } from '../security/private-modes.js';

/** Bytes buffered while a write is under way, then written at once: fewer, larger writes than the socket's 64 KiB reads. */
const WRITE_CHUNK = 1024 * 1024;
/** Bytes written between two syncs started while the rest of the file is still arriving. */
const SYNC_EVERY = 8 * 1024 * 1024;

/** What is left of `buffers` once their first `written` bytes are on the file. */
function unwritten(buffers: Buffer[], written: number): Buffer[] {
  const rest: Buffer[] = [];
  for (const buffer of buffers) {
    if (written >= buffer.length) written -= buffer.length;
    else {
      rest.push(written ? buffer.subarray(written) : buffer);
      written = 0;
    }
  }
  return rest;
}

/**
 * Writes a new file (`wx`: it must not exist) and syncs it before it is closed, as createWriteStream's
 * `flush` does; but what is written is also synced while the rest arrives (each SYNC_EVERY bytes,
 * without holding up the writes), so that the disk writes the file out as it comes and the last sync,
 * which the caller waits for, has little left to do.
 */
export function syncedFileWriter(file: string): Writable {
  let handle: FileHandle | null = null;
  let unsynced = 0;
  // The syncs started in the background, one after the other; never rejects: a failure is kept in `failure`.
  let syncing: Promise<void> = Promise.resolve();
  let failure: unknown = null;

  async function write(buffers: Buffer[]): Promise<void> {
    if (failure) throw failure;
    for (let rest = buffers; rest.length;) {
      const { bytesWritten } = await handle!.writev(rest);
      rest = unwritten(rest, bytesWritten);
      unsynced += bytesWritten;
    }
    if (unsynced >= SYNC_EVERY) {
      unsynced = 0;
      const open = handle!;
      syncing = syncing.then(() => open.datasync()).catch((err: unknown) => { failure ??= err; });
    }
  }

  return new Writable({
    highWaterMark: WRITE_CHUNK,
    construct(callback) {
      fs.open(file, 'wx', PRIVATE_FILE_MODE).then((opened) => { handle = opened; callback(); }, callback);
    },
    write(chunk: Buffer, _encoding, callback) {
      write([chunk]).then(() => callback(), callback);
    },
    writev(chunks, callback) {
      write(chunks.map(({ chunk }) => chunk as Buffer)).then(() => callback(), callback);
    },
    final(callback) {
      syncing.then(() => {
        if (failure) throw failure;
        return handle!.sync();
      }).then(() => callback(), callback);
    },
    destroy(err, callback) {
      // A sync under way finishes before the file is closed.
      syncing.then(() => handle?.close()).then(() => callback(err), (closing: Error) => callback(err ?? closing));
    },
  });
}
