import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../security/private-modes.js';

/**
 * A first start's copy of the seed cluster (seed.ts), made by a process of its own (seed-copier.ts) into a hidden folder
 * of the data folder, then renamed into place under the data folder's lock: the cluster appears whole or not at all,
 * even if the start is cut short. The command line starts the copy as soon as it knows the data folder
 * (`startSeedCopy`), before the server's modules load, so that on two cores the copy is done by the time the routes
 * are: it was the longest step of a first start.
 */

export const SEED_DIR = fileURLToPath(new URL('../../dist/pglite-seed', import.meta.url));
const COPIER = fileURLToPath(new URL('../../dist/db/seed-copier.js', import.meta.url));
const COPY_PREFIX = '.seed-copy-';

/** Copies started early, by data folder: each resolves with its folder once copied, or null if the copy failed. */
const started = new Map<string, Promise<string | null>>();

/** Copies the seed into `folder`, a new folder; answers it once copied, or fails with what the copier wrote. */
function copyInto(folder: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const copier = spawn(process.execPath, [COPIER, SEED_DIR, folder], { stdio: ['ignore', 'ignore', 'pipe'] });
    let written = '';
    copier.stderr.on('data', (chunk: Buffer) => { written += chunk.toString(); });
    copier.once('error', reject);
    copier.once('close', (code) => (code === 0
      ? resolve(folder)
      : reject(new Error(`the seed cluster could not be copied: ${written.trim() || `the copier ended with ${code}`}`))));
  });
}

/** PostgreSQL's mark of a made cluster, and of a copy renamed into place. */
const versionFile = (folder: string) => path.join(folder, 'PG_VERSION');
export const isCluster = (folder: string) => fs.existsSync(versionFile(folder));

/**
 * Starts copying the seed for a data folder whose cluster (`db`) is not made yet; nothing otherwise. Never throws: a
 * folder that cannot be made is reported by the database's opening, as without an early copy.
 */
export function startSeedCopy(dataDir: string): void {
  const key = path.resolve(dataDir);
  if (started.has(key) || !fs.existsSync(SEED_DIR) || isCluster(path.join(key, 'db'))) return;
  try {
    fs.mkdirSync(key, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  } catch {
    return;
  }
  // A failed early copy is made again when the folder is locked, which reports why it fails.
  started.set(key, copyInto(path.join(key, `${COPY_PREFIX}${randomUUID()}`)).catch(() => null));
}

/**
 * Removes the copies in the data folder but `keep`: left by starts cut short, or by a second server started on the same
 * empty folder, which found it locked. At best: a folder still being written may not be removed whole, and is left
 * for the next start.
 */
function removeCopies(key: string, keep: string | null): void {
  const names = fs.existsSync(key) ? fs.readdirSync(key) : [];
  for (const name of names) {
    if (!name.startsWith(COPY_PREFIX) || path.join(key, name) === keep) continue;
    try {
      fs.rmSync(path.join(key, name), { recursive: true, force: true });
    } catch {
      // Left for the next start.
    }
  }
}

/** The copy this process started early for a data folder, taken (undefined when it started none). */
function takeEarlyCopy(key: string): Promise<string | null> | undefined {
  const early = started.get(key);
  started.delete(key);
  return early;
}

/**
 * Makes `folder` (the data folder's `db`) the seed cluster; called with the data folder locked, when `folder` holds no
 * cluster. Takes the copy started early, or copies now. False when there is no seed (the cluster is then made in place).
 */
export async function placeSeedCluster(dataDir: string, folder: string): Promise<boolean> {
  const key = path.resolve(dataDir);
  const early = takeEarlyCopy(key);
  let copied = early ? await early : null;
  try {
    if (!copied && !fs.existsSync(SEED_DIR)) return false;
    copied ??= await copyInto(path.join(key, `${COPY_PREFIX}${randomUUID()}`));
  } finally {
    removeCopies(key, copied);
  }
  // A `db` without PG_VERSION is no cluster: what a copy in place, cut short, left before copies were renamed.
  fs.rmSync(folder, { recursive: true, force: true });
  fs.renameSync(copied, folder);
  return true;
}

/**
 * For a data folder whose cluster is made, with the folder locked: waits for a copy this process started early (another
 * start made the cluster meanwhile), then removes every copy in the folder.
 */
export async function discardSeedCopies(dataDir: string): Promise<void> {
  const key = path.resolve(dataDir);
  await takeEarlyCopy(key);
  removeCopies(key, null);
}

/**
 * Takes from everyone but the server's user what a cluster copied before copies were made 0600 left open: 0666 files
 * (any user of the machine could change the database) and 0755 folders. Done once: PG_VERSION is the copy's marker.
 */
export function restrictClusterModes(folder: string): void {
  if ((fs.statSync(versionFile(folder)).mode & 0o077) === 0) return;
  for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true })) {
    fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE);
  }
  fs.chmodSync(folder, PRIVATE_FOLDER_MODE);
}
