// GET /api/admin/roles with a bearer token, on the embedded database and on PostgreSQL, against a bare
// Fastify route in the same run. Target: at least 35% of the bare route on PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, row, scratchPostgres, startServer } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 50;

const bare = await startServer('bare');
const reference = await load(bare.url, { duration, connections });
await bare.stop();
row('bare Fastify route GET /', reference);

async function measure(label, env) {
  const atrium = await startServer('atrium', env);
  const headers = { authorization: `Bearer ${atrium.token}` };
  await load(`${atrium.url}/api/admin/roles`, { headers, duration: 1, connections }); // warm-up
  row(label, await load(`${atrium.url}/api/admin/roles`, { headers, duration, connections }), reference);
  await atrium.stop();
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-'));
await measure('GET /api/admin/roles, embedded database', { DATA_DIR: dataDir, DATABASE_URL: '' });
fs.rmSync(dataDir, { recursive: true, force: true });

const database = await scratchPostgres();
if (database) {
  await measure('GET /api/admin/roles, PostgreSQL', { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '20' });
  await database.drop();
} else {
  console.log('PostgreSQL not reachable at DATABASE_URL or 127.0.0.1:5432: skipped');
}
