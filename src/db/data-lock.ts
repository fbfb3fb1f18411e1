import fs from 'node:fs';
import path from 'node:path';
import { DatabaseUnavailable } from './errors.js';

/**
 * The embedded database allows one process per data folder. A lock file names the holder; a lock
 * left by a process that died (kill -9) is taken over.
 */
export function acquireDataLock(dataDir: string): () => void {
  const file = path.join(dataDir, 'atrium.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(file, 'utf8'));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DatabaseUnavailable(`the data folder ${dataDir} is in use by process ${holder}; stop it first`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DatabaseUnavailable(`cannot lock the data folder ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
