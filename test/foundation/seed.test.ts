import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discardSeedCopies, placeSeedCluster, restrictClusterModes, SEED_DIR, startSeedCopy } from '../../src/db/seed-copy.js';

const filesOf = (root: string) => fs.readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))).sort();
const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
/** How many files and folders under `root` (itself included) have each mode. */
function modesOf(root: string): Record<string, number> {
  const modes: Record<string, number> = {};
  const count = (file: string) => {
    const stat = fs.statSync(file);
    const key = `${stat.isDirectory() ? 'folder' : 'file'} ${(stat.mode & 0o777).toString(8)}`;
    modes[key] = (modes[key] ?? 0) + 1;
  };
  count(root);
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) count(path.join(entry.parentPath, entry.name));
  return modes;
}

describe('the embedded database\'s seed, as a first start places it', () => {
  const folders: string[] = [];
  const dataFolder = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-seed-'));
    folders.push(folder);
    return folder;
  };
  afterAll(() => folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

  it('copies every file byte for byte, and its WAL segment as a file with holes: 16 MB long, a few KB on disk', async () => {
    const dataDir = dataFolder();
    const cluster = path.join(dataDir, 'db');
    expect(await placeSeedCluster(dataDir, cluster)).toBe(true);
    expect(filesOf(cluster)).toEqual(filesOf(SEED_DIR));
    for (const file of filesOf(SEED_DIR)) expect(digest(path.join(cluster, file)), file).toBe(digest(path.join(SEED_DIR, file)));
    const segments = fs.readdirSync(path.join(cluster, 'pg_wal')).filter((name) => /^[0-9A-F]{24}$/.test(name));
    expect(segments).toHaveLength(1);
    const segment = fs.statSync(path.join(cluster, 'pg_wal', segments[0]!));
    expect(segment.size).toBe(16 * 1024 * 1024);
    expect(segment.blocks * 512).toBeLessThan(1024 * 1024);
    expect(fs.readdirSync(dataDir)).toEqual(['db']);
    // The server's user's alone, whatever the seed's modes (PGlite writes some of its files 0666).
    expect(Object.keys(modesOf(cluster)).sort()).toEqual(['file 600', 'folder 700']);
  });

  it('takes from other users what a cluster copied by an earlier version left open to them, once', async () => {
    const dataDir = dataFolder();
    const cluster = path.join(dataDir, 'db');
    await placeSeedCluster(dataDir, cluster);
    for (const entry of fs.readdirSync(cluster, { recursive: true, withFileTypes: true })) {
      fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o666);
    }
    fs.chmodSync(cluster, 0o755);
    restrictClusterModes(cluster);
    expect(Object.keys(modesOf(cluster)).sort()).toEqual(['file 600', 'folder 700']);
  });

  it('takes the copy started early, and removes what a start cut short left: copies under way and a cluster half made in place', async () => {
    const dataDir = dataFolder();
    const cluster = path.join(dataDir, 'db');
    fs.mkdirSync(path.join(dataDir, '.seed-copy-cut-short', 'base'), { recursive: true });
    fs.mkdirSync(path.join(cluster, 'base'), { recursive: true });
    startSeedCopy(dataDir);
    expect(await placeSeedCluster(dataDir, cluster)).toBe(true);
    expect(fs.readdirSync(dataDir)).toEqual(['db']);
    expect(filesOf(cluster)).toEqual(filesOf(SEED_DIR));
  });

  it('says why a copy failed, in the copier\'s words', async () => {
    const dataDir = path.join(dataFolder(), 'not-made');
    await expect(placeSeedCluster(dataDir, path.join(dataDir, 'db'))).rejects.toThrow(/^the seed cluster could not be copied: ENOENT: no such file or directory, mkdir/);
  });

  it('starts no copy where the cluster is already made, and removes the copies a start cut short left beside it', async () => {
    const dataDir = dataFolder();
    await placeSeedCluster(dataDir, path.join(dataDir, 'db'));
    startSeedCopy(dataDir);
    expect(fs.readdirSync(dataDir)).toEqual(['db']);
    fs.mkdirSync(path.join(dataDir, '.seed-copy-cut-short', 'base'), { recursive: true });
    await discardSeedCopies(dataDir);
    expect(fs.readdirSync(dataDir)).toEqual(['db']);
  });
});
