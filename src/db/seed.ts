import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

/**
 * An empty embedded cluster, made once at build time. Running initdb in WebAssembly takes seconds;
 * loading this archive takes about one, which keeps a first start fast.
 */
export const SEED_FILE = new URL('../../dist/pglite-seed.tar.gz', import.meta.url);

export async function loadSeedCluster(): Promise<Blob | undefined> {
  try {
    return new Blob([await fs.promises.readFile(SEED_FILE)]);
  } catch {
    return undefined;
  }
}

export async function writeSeedCluster(): Promise<void> {
  const client = await PGlite.create();
  const dump = await client.dumpDataDir('gzip');
  await client.close();
  await fs.promises.writeFile(SEED_FILE, Buffer.from(await dump.arrayBuffer()));
}
