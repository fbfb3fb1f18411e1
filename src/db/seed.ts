import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

/**
 * An empty embedded cluster, made once at build time. Running initdb in WebAssembly takes seconds;
 * copying this folder takes a tenth of one, which keeps a first start fast. The same cluster as an
 * archive seeds the in-memory databases of the tests.
 */
export const SEED_DIR = fileURLToPath(new URL('../../dist/pglite-seed', import.meta.url));
export const SEED_ARCHIVE = fileURLToPath(new URL('../../dist/pglite-seed.tar.gz', import.meta.url));

let seedArchive: Promise<Blob | undefined> | null = null;

/**
 * The seed cluster as an uncompressed tar, unpacked once per process: an in-memory database (each test
 * file opens one) then starts a fifth sooner than from the gzip. Only in-memory databases read it.
 */
export function loadSeedArchive(): Promise<Blob | undefined> {
  seedArchive ??= fs.promises.readFile(SEED_ARCHIVE).then(
    (archive) => new Blob([zlib.gunzipSync(archive)]),
    () => undefined,
  );
  return seedArchive;
}

/** Copies the seed cluster into an empty folder; false when there is no seed (the cluster is then made in place). */
export async function copySeedCluster(folder: string): Promise<boolean> {
  if (!fs.existsSync(SEED_DIR)) return false;
  await copyTree(SEED_DIR, folder);
  return true;
}

// copyFile per file (copy_file_range in the kernel, on libuv's threads): several times faster than
// fs.cpSync here, and the start goes on loading modules meanwhile.
async function copyTree(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(to, { recursive: true });
  const entries = await fs.promises.readdir(from, { withFileTypes: true });
  await Promise.all(entries.map(async (entry) => {
    const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) return copyTree(source, target);
    const { size, blocks, mode } = await fs.promises.stat(source);
    return blocks * 512 < size ? copySparse(source, target, size, mode) : fs.promises.copyFile(source, target);
  }));
}

const CHUNK = 1024 * 1024;
const ZEROS = Buffer.alloc(CHUNK);

/**
 * Copies a file with holes (the seed's WAL segment: 16 MB, of which the first few KB are written) as one:
 * the written chunks are written, the rest is left a hole, which reads as zeros. copyFile writes every byte.
 */
async function copySparse(source: string, target: string, size: number, mode: number): Promise<void> {
  const [input, output] = [await fs.promises.open(source, 'r'), await fs.promises.open(target, 'wx', mode)];
  try {
    const chunk = Buffer.alloc(CHUNK);
    for (let at = 0; at < size; at += CHUNK) {
      const { bytesRead } = await input.read(chunk, 0, CHUNK, at);
      if (!chunk.subarray(0, bytesRead).equals(ZEROS.subarray(0, bytesRead))) await output.write(chunk, 0, bytesRead, at);
    }
    await output.truncate(size);
  } finally {
    await input.close();
    await output.close();
  }
}

/**
 * The seed carries the schema of this build too: a first start then finds its migrations applied, and
 * only migrations newer than the build would run.
 */
export async function writeSeedCluster(migrationsFolder: string): Promise<void> {
  fs.rmSync(SEED_DIR, { recursive: true, force: true });
  const client = await PGlite.create({ dataDir: SEED_DIR });
  // The application uses the `postgres` database only; without the two template databases a first
  // start writes 24 MB instead of 40.
  await client.exec("update pg_database set datistemplate = false where datname in ('template0', 'template1')");
  await client.exec('drop database template0');
  await client.exec('drop database template1');
  await migrate(drizzle(client), { migrationsFolder });
  // The migrations' WAL is not needed once checkpointed: a new segment holds the checkpoint alone, made as a file with
  // holes (wal_init_zero off), and the old one is removed rather than kept for reuse (wal_recycle off). A new data
  // folder then takes 13 MB of disk rather than 29 (copySparse), and the archive 1.3 MB rather than 3.6.
  await client.exec('set wal_recycle = off; set wal_init_zero = off');
  await client.query('select pg_switch_wal()');
  await client.exec('checkpoint');
  const dump = await client.dumpDataDir('gzip');
  await client.close();
  await fs.promises.writeFile(SEED_ARCHIVE, Buffer.from(await dump.arrayBuffer()));
}
