import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';
import { freshDatabaseUrl, usingPostgres } from '../helpers/database.js';
import { TEST_SECRETS_KEY } from '../helpers/harness.js';
import { until } from '../helpers/until.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-workers-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The live child processes of a process, from /proc. */
function childrenOf(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));


describe('WORKERS: several server processes sharing the port', () => {
  it('refuses WORKERS above 1 on the embedded database with one clear line', async () => {
    const result = await runCli(['serve'], { DATA_DIR: dataDir, PORT: '0', WORKERS: '2', DATABASE_URL: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('atrium: WORKERS=2 needs PostgreSQL (DATABASE_URL): the embedded database is served by one process per DATA_DIR\n');
    const bad = await runCli(['serve'], { DATA_DIR: dataDir, PORT: '0', WORKERS: 'many' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('atrium: WORKERS must be a whole number from 1 to 256, got "many"\n');
  });

  it.skipIf(!usingPostgres())('serves with two worker processes on PostgreSQL, replaces one that dies, and stops all on SIGTERM', async () => {
    const database = await freshDatabaseUrl();
    try {
      const server = await startServe({
        DATA_DIR: dataDir, DATABASE_URL: database.url!, SECRETS_KEY: TEST_SECRETS_KEY, WORKERS: '2',
        ATRIUM_ADMIN_EMAIL: 'owner@workers.test', ATRIUM_ADMIN_PASSWORD: 'a long owner password',
      });
      const primary = server.child.pid!;
      await until(() => (server.stdout().match(/serving on/g) ?? []).length === 2, 'both workers to listen', 30_000);
      // The owner was created once, by the primary, and shown once.
      expect(server.stdout().match(/First start/g)).toHaveLength(1);
      const workers = childrenOf(primary);
      expect(workers).toHaveLength(2);

      const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(`${server.url}/healthz`).then((res) => res.status)));
      expect(answers).toEqual(Array(40).fill(200));
      const signIn = await fetch(`${server.url}/api/admin/session`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@workers.test', password: 'a long owner password' }),
      });
      expect(signIn.status).toBe(200);

      // A worker killed outright is replaced; the port keeps answering.
      process.kill(workers[0], 'SIGKILL');
      await until(() => {
        const now = childrenOf(primary).filter(alive);
        return now.length === 2 && !now.includes(workers[0]);
      }, 'a new worker');
      await until(() => (server.stdout().match(/serving on/g) ?? []).length === 3, 'the new worker to listen', 30_000);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

      const running = childrenOf(primary);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      for (const pid of running) expect(alive(pid), `worker ${pid}`).toBe(false);
    } finally {
      await database.drop();
    }
  }, 90_000);
});
