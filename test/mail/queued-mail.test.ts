import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { rowsOf } from '../../src/db/rows.js';
import { drainTasks, nextTaskDue, taskWorker } from '../../src/queue/tasks.js';
import { TASK_QUEUES } from '../../src/server.js';
import { startServe } from '../helpers/cli.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { startHarness, TEST_SECRETS_KEY, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { freePort } from '../helpers/server.js';
import { codeIn, startSmtp } from '../helpers/smtp.js';
import { until } from '../helpers/until.js';
import { requestCodeAtPage, verify } from '../otp/flow.js';

const tasksOf = async (h: Harness) => rowsOf<{ attempts: number; lease_until: Date | null; failed_at: Date | null }>(
  await h.ctx.db.execute(sql`select attempts, lease_until, failed_at from queue_tasks where queue = 'mail'`));

describe('transactional mail goes through the work queue', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('a code asked for while the mail server is down arrives once it is back, on the next retry (5 s), once', async () => {
    const port = await freePort();
    const h = await startHarness({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    cleanups.push(() => h.close());
    const realm = await makeRealm(h, { settings: { otp_resend_wait_seconds: 0 } });
    const user = await makeRealmUser(h, realm.uid);

    const asked = await requestCodeAtPage(h, realm.uid, user.email);
    expect(asked.statusCode, asked.body).toBe(303);
    // Nothing listens: the first attempt fails and the mail waits, sealed, for its retry.
    await until(async () => (await tasksOf(h)).some((t) => t.attempts === 1 && t.lease_until === null), 'the failed first attempt');
    const [stored] = rowsOf<{ payload: string }>(await h.ctx.db.execute(sql`select payload::text from queue_tasks`));
    expect(stored.payload).not.toContain(user.email);
    // The loop sleeps until the retry, read from the first row of the due index (not from every task waiting).
    const [{ run_at: retryAt }] = rowsOf<{ run_at: Date }>(await h.ctx.db.execute(sql`select run_at from queue_tasks where queue = 'mail'`));
    expect(await taskWorker(h.ctx, TASK_QUEUES).nextDue!()).toEqual(new Date(retryAt));
    const plan = await h.ctx.db.transaction(async (tx) => {
      // As on a table too large to read whole: no sequential or bitmap scan (which a sort would have to follow).
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      return rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain ${nextTaskDue}`)).map((line) => line['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Scan using queue_tasks_due/);
    expect(plan).not.toMatch(/Sort/);
    expect(plan).toMatch(/queue_tasks_leased/);

    const smtp = await startSmtp({ port });
    cleanups.push(() => smtp.close());
    h.clock.advance(5_000);
    await drainTasks(h.ctx, TASK_QUEUES);
    const mail = await smtp.next(user.email);
    expect((await verify(h, realm.uid, user.email, codeIn(mail))).statusCode).toBe(200);
    expect(await tasksOf(h)).toEqual([]);
    await drainTasks(h.ctx, TASK_QUEUES);
    expect(smtp.received.filter((m) => m.to.includes(user.email.toLowerCase()))).toHaveLength(1);
  });

  it('a mail server answering 5xx fails the mail at once, kept with its reason; the answer was 303 all the same', async () => {
    const smtp = await startSmtp({ accepting: async () => { throw Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 }); } });
    cleanups.push(() => smtp.close());
    const h = await startHarness({ SMTP_URL: smtp.url });
    cleanups.push(() => h.close());
    const realm = await makeRealm(h, { settings: { otp_resend_wait_seconds: 0 } });
    const user = await makeRealmUser(h, realm.uid);
    expect((await requestCodeAtPage(h, realm.uid, user.email)).statusCode).toBe(303);
    await until(async () => (await tasksOf(h)).some((t) => t.failed_at !== null), 'the failure to be recorded');
    const [task] = await tasksOf(h);
    expect(task.attempts).toBe(1);
  });

  it('SIGTERM while a mail is being sent: the process waits for it, the mail arrives exactly once and is not queued again', async () => {
    let arrived!: () => void;
    const dataArrived = new Promise<void>((resolve) => { arrived = resolve; });
    let accept!: () => void;
    const accepted = new Promise<void>((resolve) => { accept = resolve; });
    const smtp = await startSmtp({ accepting: () => { arrived(); return accepted; } });
    cleanups.push(() => smtp.close());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-mail-queue-'));
    const database = await freshDatabaseUrl();
    cleanups.push(async () => { await database.drop(); fs.rmSync(dataDir, { recursive: true, force: true }); });
    const env = {
      DATA_DIR: dataDir, SMTP_URL: smtp.url, ATRIUM_ADMIN_EMAIL: 'owner@queue.test', ATRIUM_ADMIN_PASSWORD: 'a long queue owner password',
      ...(database.url ? { DATABASE_URL: database.url, SECRETS_KEY: TEST_SECRETS_KEY } : {}),
    };
    const server = await startServe(env);
    const token = /admin API token: (\S+)/.exec(server.stdout())![1];
    const api = (method: string, url: string, body: unknown) => fetch(`${server.url}/api/admin${url}`, {
      method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    expect((await api('POST', '/realms', { uid: 'queue', name: 'Queue' })).status).toBe(201);
    expect((await api('POST', '/customers/queue/users/invitations', { email: 'invited@example.com' })).status).toBe(201);

    await dataArrived;
    server.child.kill('SIGTERM');
    // The process is still there, waiting for the mail server's answer.
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.child.exitCode).toBeNull();
    accept();
    expect(await server.exited).toBe(0);
    expect(smtp.received.filter((m) => m.to.includes('invited@example.com'))).toHaveLength(1);

    const stored = await openDatabase({ url: database.url, dataDir: database.url ? null : dataDir });
    try {
      expect(rowsOf(await stored.db.execute(sql`select id from queue_tasks`))).toEqual([]);
    } finally {
      await stored.close();
    }
  }, 120_000);
});
