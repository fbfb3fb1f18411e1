import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type RunningCli } from '../helpers/cli.js';
import { freshDatabaseUrl, usingPostgres } from '../helpers/database.js';
import { TEST_SECRETS_KEY } from '../helpers/harness.js';
import { startReceiver, type Receiver } from './receiver.js';
import { until } from '../helpers/until.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook senders in real server processes', () => {
  let dataDir: string;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let receiver: Receiver;
  const servers: RunningCli[] = [];
  let token = '';

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-webhooks-'));
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) server.child.kill('SIGKILL');
    await receiver?.close();
    await database?.drop();
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const envOf = (pollMs: number) => ({
    DATA_DIR: dataDir, WEBHOOKS_ALLOW_PRIVATE: '1', WEBHOOKS_POLL_MS: String(pollMs),
    ATRIUM_ADMIN_EMAIL: 'owner@webhooks.test', ATRIUM_ADMIN_PASSWORD: 'a long owner password',
    ...(database.url ? { DATABASE_URL: database.url, SECRETS_KEY: TEST_SECRETS_KEY } : {}),
  });
  const serve = async (pollMs: number) => {
    const server = await startServe(envOf(pollMs));
    servers.push(server);
    token ||= /admin API token: (\S+)/.exec(server.stdout())![1];
    return server;
  };
  const api = async (base: string, method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}/api/admin${url}`, {
      method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  it('delivers after a SIGKILL what was committed before it (the outbox)', async () => {
    database = await freshDatabaseUrl();
    token = '';
    // The endpoint is down while the first process lives: its one attempt fails, and the delivery waits for its retry.
    let down = true;
    receiver = await startReceiver(null, () => ({ status: down ? 503 : 204 }));
    const first = await serve(100);
    await api(first.url, 'POST', '/realms', { uid: 'outbox', name: 'Outbox' });
    const hook = await api(first.url, 'POST', '/webhooks', { url: `${receiver.url}/hook`, event_types: ['realm_user.created'] });
    receiver.secrets.push(hook.secret);
    const user = await api(first.url, 'POST', '/customers/outbox/users', { email: 'kept@outbox.test' });
    const deliveries = async (base: string) => (await api(base, 'GET', `/webhooks/${hook.id}/deliveries`)).deliveries;
    await until(async () => (await deliveries(first.url))[0]?.attempts_count === 1, 'the failed first attempt');
    const [queued] = await deliveries(first.url);
    expect(queued).toMatchObject({ status: 'pending', event_type: 'realm_user.created' });
    first.child.kill('SIGKILL');
    await first.exited;
    down = false;

    const second = await serve(100);
    await until(async () => (await deliveries(second.url))[0].status === 'succeeded', 'the delivery after the restart');
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]).toMatchObject({ id: queued.webhook_id, verifiedWith: [hook.secret] });
    const payload = JSON.parse(receiver.received[1].body);
    expect(payload).toMatchObject({ type: 'realm_user.created', data: { realm_uid: 'outbox', id: user.id, email: 'kept@outbox.test' } });
  }, 120_000);

  it.skipIf(!usingPostgres())('two processes on one database send each of 200 deliveries exactly once', async () => {
    database = await freshDatabaseUrl();
    token = '';
    // A slow receiver, so that both processes' batches are in flight at once; down (503) while the backlog is written.
    let down = true;
    const accepted = new Set<number>();
    receiver = await startReceiver(null, (index) => {
      if (!down) accepted.add(index);
      return { status: down ? 503 : 204, delayMs: 20 };
    });
    const first = await serve(100);
    await api(first.url, 'POST', '/realms', { uid: 'pair', name: 'Pair' });
    const hook = await api(first.url, 'POST', '/webhooks', { url: `${receiver.url}/hook`, event_types: ['realm_user.created', 'realm_user.updated'] });
    receiver.secrets.push(hook.secret);
    const EVENTS = 200;
    const users: number[] = [];
    for (let i = 0; i < EVENTS / 2; i++) users.push((await api(first.url, 'POST', '/customers/pair/users', { email: `user-${i}@pair.test` })).id);
    for (const id of users) await api(first.url, 'PUT', `/customers/pair/users/${id}`, { first_name: 'Changed' });
    // Stopped cleanly with the backlog unsent; two fresh processes then start on it together once the endpoint is back.
    first.child.kill('SIGTERM');
    await first.exited;
    servers.splice(0);
    down = false;
    // The endpoint is back: the backlog's retries (5 s, or 5 minutes for a delivery that failed twice while it was
    // being written) are brought forward to now, as resends would, so that both processes start on all of it at once.
    const direct = new pg.Client({ connectionString: database.url ?? '' });
    await direct.connect();
    await direct.query("update webhook_deliveries set next_attempt_at = now() where status = 'pending'");
    await direct.end();
    const [a, b] = await Promise.all([serve(20), serve(20)]);
    await until(async () => (await api(a.url, 'GET', `/webhooks/${hook.id}/deliveries?status=pending&per_page=1`)).meta.total_entries === 0, 'the backlog to drain');
    await wait(300);
    const counts = new Map<string, number>();
    for (const [index, r] of receiver.received.entries()) if (accepted.has(index)) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
    expect(counts.size).toBe(EVENTS);
    expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);
    const succeeded = (await api(b.url, 'GET', `/webhooks/${hook.id}/deliveries?status=succeeded&per_page=1`)).meta.total_entries;
    expect(succeeded).toBe(EVENTS);
  }, 180_000);
});
