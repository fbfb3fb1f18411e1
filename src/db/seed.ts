import fs from 'node:fs';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { SEED_DIR } from './seed-copy.js';

/**
 * An empty embedded cluster, made once at build time. Running initdb in WebAssembly takes seconds; a
 * first start copies this folder instead (seed-copy.ts). The same cluster as an archive seeds the
 * in-memory databases of the tests.
 */
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
  // folder then takes 13 MB of disk rather than 29 (seed-copier.ts), and the archive 1.3 MB rather than 3.6.
  await client.exec('set wal_recycle = off; set wal_init_zero = off');
  await client.query('select pg_switch_wal()');
  await client.exec('checkpoint');
  const dump = await client.dumpDataDir('gzip');
  await client.close();
  await fs.promises.writeFile(SEED_ARCHIVE, Buffer.from(await dump.arrayBuffer()));
}
