import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { PRIVATE_FOLDER_MODE } from '../security/private-modes.js';
import type { Database, Db } from './connect.js';
import { acquireDataLock } from './data-lock.js';
import { embeddedAssets } from './embedded-assets.js';
import { DatabaseUnavailable } from './errors.js';
import { requestScopedDb } from './handle.js';
import { loadSeedArchive } from './seed.js';
import { discardSeedCopies, isCluster, placeSeedCluster, restrictClusterModes } from './seed-copy.js';

/** The embedded database: PostgreSQL compiled to WebAssembly (PGlite), in the server's own process. */

/**
 * PostgreSQL's memory inside PGlite, sized for one process's workload rather than a server's: its
 * default 128 MB of shared buffers, mostly touched once the catalog and a few tables are read, was two
 * thirds of an embedded server's memory at rest (issue 30 item 5). 8 MB (1,024 pages) rather than 16: about
 * 6 MB less at rest; pages beyond them are read back through the operating system's cache.
 */
const EMBEDDED_SETTINGS = {
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB', '-c', 'work_mem=4MB', '-c', 'maintenance_work_mem=16MB'],
};

export async function openEmbedded(dataDir: string | null): Promise<Database> {
  let release = () => {};
  let client: PGlite;
  if (dataDir === null) {
    client = await PGlite.create({ loadDataDir: await loadSeedArchive(), ...await embeddedAssets(), ...EMBEDDED_SETTINGS });
  } else {
    fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    release = acquireDataLock(dataDir);
    const folder = path.join(dataDir, 'db');
    try {
      if (!isCluster(folder)) {
        await placeSeedCluster(dataDir, folder);
      } else {
        await discardSeedCopies(dataDir);
        restrictClusterModes(folder);
      }
      client = await PGlite.create({ dataDir: folder, ...await embeddedAssets(), ...EMBEDDED_SETTINGS });
    } catch (err) {
      release();
      throw new DatabaseUnavailable(`cannot open the embedded database in ${folder}: ${(err as Error).message}`);
    }
  }
  return embeddedDatabase(client, async () => {
    try {
      await client.close();
    } finally {
      release();
    }
  });
}

/**
 * The embedded database over an open PGlite client; `end` runs at close, once this handle's listeners are
 * removed (the tests hand one client to file after file, emptied between them).
 */
export function embeddedDatabase(client: PGlite, end: () => Promise<void>): Database {
  const db = requestScopedDb(drizzlePglite(client) as unknown as Db);
  const unlistens: (() => Promise<void>)[] = [];
  let open = true;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      if (!open) throw new DatabaseUnavailable('the embedded database is closed');
      await client.exec('select 1');
    },
    pool: () => ({ max: 1, total: 1, idle: null, waiting: null }),
    exclusive: (_key, fn) => fn(),
    // One process holds the embedded database: there is no one else to tell.
    broadcast: () => {},
    notify: (channel, payload) => {
      if (open) client.query('select pg_notify($1, $2)', [channel, payload]).catch(() => {});
    },
    subscribe: async () => {},
    listen: async (channel, listener) => { unlistens.push(await client.listen(channel, listener)); },
    close: async () => {
      open = false;
      try {
        for (const unlisten of unlistens.splice(0)) await unlisten().catch(() => {});
      } finally {
        await end();
      }
    },
  };
}
