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
  await Promise.all(entries.map((entry) => (entry.isDirectory()
    ? copyTree(path.join(from, entry.name), path.join(to, entry.name))
    : fs.promises.copyFile(path.join(from, entry.name), path.join(to, entry.name)))));
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
  await client.exec('checkpoint');
  const dump = await client.dumpDataDir('gzip');
  await client.close();
  await fs.promises.writeFile(SEED_ARCHIVE, Buffer.from(await dump.arrayBuffer()));
}
