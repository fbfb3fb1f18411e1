import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type RunningCli } from '../helpers/cli.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { TEST_SECRETS_KEY } from '../helpers/harness.js';
import { startSmtp, type SmtpListener } from '../helpers/smtp.js';
import { until } from '../helpers/until.js';

const RECIPIENTS = 80;
const BATCH = 10;
/** Sending loops per serving process (messaging/worker.ts). */
const LOOPS = 4;


describe('a sending process killed mid-delivery', () => {
  let smtp: SmtpListener;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  const servers: RunningCli[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-crash-'));
    database = await freshDatabaseUrl();
  });
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await database?.drop();
    await smtp?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes after a restart: no recipient gets two messages, every one gets one except those reported in doubt', async () => {
    const env = {
      DATA_DIR: dataDir, SMTP_URL: smtp.url, SENDING_LEASE_SECONDS: '5', SENDING_BATCH_SIZE: String(BATCH),
      ATRIUM_ADMIN_EMAIL: 'owner@crash.test', ATRIUM_ADMIN_PASSWORD: 'a long owner password',
      ...(database.url ? { DATABASE_URL: database.url, SECRETS_KEY: TEST_SECRETS_KEY } : {}),
    };
    const first = await startServe(env);
    servers.push(first);
    const token = /admin API token: (\S+)/.exec(first.stdout())![1];
    const api = async (base: string, method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}/api/admin${url}`, {
        method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await res.json();
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    await api(first.url, 'POST', '/realms', { uid: 'crash', name: 'Crash' });
    const emails: string[] = [];
    for (let i = 0; i < RECIPIENTS; i++) {
      emails.push((await api(first.url, 'POST', '/customers/crash/users', { email: `user-${i}@crash.test` })).email);
    }
    const campaign = await api(first.url, 'POST', '/messaging/campaigns', { realm_uid: 'crash', name: 'Crash', type: 'mailing', subject: 'Hi', body: 'Hello' });
    const delivery = await api(first.url, 'POST', `/messaging/campaigns/${campaign.id}/deliveries`, { rate_per_second: 20 });

    await until(() => smtp.received.length >= 20, 'the first messages', 150_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const beforeRestart = smtp.received.length;
    expect(beforeRestart).toBeLessThan(RECIPIENTS);

    const second = await startServe(env);
    servers.push(second);
    const show = () => api(second.url, 'GET', `/messaging/campaigns/${campaign.id}/deliveries/${delivery.id}`);
    await until(async () => (await show()).status === 'completed', 'the delivery to complete after the restart', 150_000);
    const done = await show();

    const messages: { user_email: string; status: string }[] = [];
    for (let page = 1; messages.length < RECIPIENTS; page++) {
      const answer = await api(second.url, 'GET', `/messaging/message_deliveries?delivery_id=${delivery.id}&per_page=100&page=${page}`);
      messages.push(...answer.message_deliveries);
      if (!answer.message_deliveries.length) break;
    }
    const inDoubt = new Set(messages.filter((m) => m.status === 'in_doubt').map((m) => m.user_email));
    const received = new Map<string, number>();
    for (const mail of smtp.received) for (const to of mail.to) received.set(to, (received.get(to) ?? 0) + 1);

    console.log(`crash test: ${beforeRestart} received before the kill, ${inDoubt.size} in doubt (of them ${[...inDoubt].filter((e) => received.has(e)).length} had arrived), `
      + `${received.size} recipients reached`);
    expect(done).toMatchObject({ reach: RECIPIENTS, in_doubt_count: inDoubt.size, sent_count: RECIPIENTS - inDoubt.size, failed_count: 0 });
    expect(messages).toHaveLength(RECIPIENTS);
    expect([...received.values()].filter((n) => n > 1)).toEqual([]);
    expect(emails.filter((email) => !received.has(email) && !inDoubt.has(email))).toEqual([]);
    expect(inDoubt.size).toBeLessThanOrEqual(BATCH * LOOPS);
  }, 400_000);
});
