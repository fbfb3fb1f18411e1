/**
 * Run as a process of its own by seed-copy.ts: copies the seed cluster (`from`) into a new folder (`to`) and exits 0,
 * or with the error's text and 1. Synchronous calls in a process of their own: creating the 846 files of a cluster is
 * mostly kernel time (0.05–0.9 s on the same machine, as its disk is busy), spent on the other core while the server
 * loads its modules. Whatever the seed's modes (PGlite writes some files 0666), the copy is the server's user's alone:
 * folders 0700, files 0600, as PostgreSQL makes its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../security/private-modes.js';

const CHUNK = 64 * 1024;
const ZEROS = Buffer.alloc(CHUNK);

/**
 * Copies a file with holes (the seed's WAL segment: 16 MB, of which the first few KB are written) as one: the written
 * chunks are written, the rest is left a hole, which reads as zeros. copyFile would write every byte.
 */
function copySparse(source: string, target: string, size: number): void {
  const input = fs.openSync(source, 'r');
  const output = fs.openSync(target, 'wx', PRIVATE_FILE_MODE);
  try {
    const chunk = Buffer.alloc(CHUNK);
    for (let at = 0; at < size; at += CHUNK) {
      const read = fs.readSync(input, chunk, 0, CHUNK, at);
      if (!chunk.subarray(0, read).equals(ZEROS.subarray(0, read))) fs.writeSync(output, chunk, 0, read, at);
    }
    fs.ftruncateSync(output, size);
  } finally {
    fs.closeSync(input);
    fs.closeSync(output);
  }
}

function copyTree(from: string, to: string): void {
  fs.mkdirSync(to, { mode: PRIVATE_FOLDER_MODE });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) {
      copyTree(source, target);
      continue;
    }
    const { size, blocks } = fs.statSync(source);
    if (blocks * 512 < size) {
      copySparse(source, target, size);
    } else {
      // copyFile gives the copy the seed's mode.
      fs.copyFileSync(source, target, fs.constants.COPYFILE_EXCL);
      fs.chmodSync(target, PRIVATE_FILE_MODE);
    }
  }
}

const [from, to] = process.argv.slice(2);
try {
  copyTree(from!, to!);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
}
