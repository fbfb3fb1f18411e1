import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copySeedCluster, SEED_DIR } from '../../src/db/seed.js';

const filesOf = (root: string) => fs.readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))).sort();
const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('the embedded database\'s seed, as a first start copies it', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-seed-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('copies every file byte for byte, and its WAL segment as a file with holes: 16 MB long, a few KB on disk', async () => {
    const target = path.join(folder, 'cluster');
    expect(await copySeedCluster(target)).toBe(true);
    expect(filesOf(target)).toEqual(filesOf(SEED_DIR));
    for (const file of filesOf(SEED_DIR)) expect(digest(path.join(target, file)), file).toBe(digest(path.join(SEED_DIR, file)));
    const segments = fs.readdirSync(path.join(target, 'pg_wal')).filter((name) => /^[0-9A-F]{24}$/.test(name));
    expect(segments).toHaveLength(1);
    const segment = fs.statSync(path.join(target, 'pg_wal', segments[0]!));
    expect(segment.size).toBe(16 * 1024 * 1024);
    expect(segment.blocks * 512).toBeLessThan(1024 * 1024);
  });
});
