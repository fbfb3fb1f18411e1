import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, until, type Cluster } from './cluster.js';
import { startPrivatePostgres, type PrivatePostgres } from './postgres.js';

const RECIPIENTS = 6000;

describe('faults: a killed instance, a killed upload, PostgreSQL restarted under traffic', () => {
  let postgres: PrivatePostgres;
  let c: Cluster;
  let db: pg.Client;
  beforeAll(async () => {
    // A PostgreSQL of this test's own: stopping it disturbs nothing else on the machine.
    postgres = await startPrivatePostgres();
    process.env.DATABASE_URL = postgres.url;
    // A short lease, so that the messages of a killed sender are found in doubt within the test.
    c = await startCluster(2, { SENDING_LEASE_SECONDS: '3' });
    db = new pg.Client({ connectionString: c.databaseUrl });
    db.on('error', () => {});
    await db.connect();
  });
  afterAll(async () => { await db?.end().catch(() => {}); await c?.close(); await postgres?.close(); });

  it('an instance killed mid-campaign: no message sent twice, the ones in doubt reported, none lost silently', async () => {
    expect((await c.api('POST', '/api/admin/realms', { uid: 'kill', name: 'Kill' })).status).toBe(201);
    await db.query(`insert into realm_users (realm_id, email, first_name)
      select r.id, 'kill-' || n || '@faults.test', 'K' from realms r, generate_series(1, ${RECIPIENTS}) n where r.uid = 'kill'`);
    const campaign = (await c.api('POST', '/api/admin/messaging/campaigns', { realm_uid: 'kill', name: 'K', type: 'mailing', subject: 'S', body: '<p>B</p>' })).json;
    const before = c.smtp.received.length;
    const delivery = (await c.api('POST', `/api/admin/messaging/campaigns/${campaign.id}/deliveries`, { rate_per_second: 1500 })).json;
    const show = async () => (await c.api('GET', `/api/admin/messaging/campaigns/${campaign.id}/deliveries/${delivery.id}`, undefined, { base: c.instances[1].url })).json;
    await until(async () => (await show()).sent_count >= RECIPIENTS / 5, 'a fifth of the messages sent');
    // Killed while it holds messages it took and has not reported: those are the ones in doubt.
    const victim = c.instances[0].pid();
    await until(async () => (await db.query(`select count(*)::int as n from message_deliveries
      where delivery_id = $1 and status = 'sending' and split_part(worker, ':', 2)::int = $2`, [delivery.id, victim])).rows[0].n > 0, 'the instance to hold messages');
    await c.instances[0].stop('SIGKILL');
    await until(async () => ['completed', 'failed'].includes((await show()).status), 'the delivery to end on the surviving instance', 120_000);
    const done = await show();
    expect(done.status).toBe('completed');
    expect(done.reach).toBe(RECIPIENTS);
    expect(done.sent_count + done.in_doubt_count + done.failed_count).toBe(RECIPIENTS);
    expect(done.in_doubt_count).toBeGreaterThan(0);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const mails = c.smtp.received.slice(before).map((mail) => mail.to[0]);
    expect(new Set(mails).size, 'no recipient got two messages').toBe(mails.length);
    const { rows } = await db.query(`select u.email from message_deliveries m join realm_users u on u.id = m.user_id
      where m.delivery_id = $1 and m.status = 'in_doubt'`, [delivery.id]);
    const inDoubt = rows.map((row) => row.email.toLowerCase());
    expect(inDoubt).toHaveLength(done.in_doubt_count);
    // Every recipient either got its message or is reported in doubt (perhaps sent: its sender died before saying).
    const accounted = new Set([...mails, ...inDoubt]);
    expect(accounted.size).toBe(RECIPIENTS);
    console.log(`killed mid-campaign: ${done.sent_count} sent, ${done.in_doubt_count} in doubt (${inDoubt.filter((email) => !mails.includes(email)).length} of them never reached the SMTP listener), ${done.failed_count} failed`);

    await c.instances[0].start();
    expect((await fetch(`${c.instances[0].url}/healthz`)).status).toBe(200);
  });

  it('an instance killed mid-upload leaves no file and no row behind', async () => {
    expect((await c.api('POST', '/api/admin/content/spaces', { uid: 'files', name: 'Files', default_locale: 'en', locales: ['en'] })).status).toBe(201);
    const keysBefore = c.s3.keys();
    const assets = async () => (await c.api('GET', '/api/admin/content/spaces/files/assets')).json.meta.total_entries as number;
    const assetsBefore = await assets();

    const boundary = 'scaleboundary';
    const request = http.request({
      host: '127.0.0.1', port: c.instances[0].port, method: 'POST', path: '/api/admin/content/spaces/files/assets',
      headers: { authorization: `Bearer ${c.token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(30 * 1024 * 1024) },
    });
    const ended = new Promise<string>((resolve) => {
      request.on('error', (error) => resolve(error.message));
      request.on('response', (response) => resolve(`answered ${response.statusCode}`));
    });
    request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`);
    const chunk = Buffer.alloc(512 * 1024, 'a');
    for (let i = 0; i < 12; i++) {
      request.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await c.instances[0].stop('SIGKILL');
    expect(await ended).not.toMatch(/^answered/);

    await c.instances[0].start();
    expect(await assets()).toBe(assetsBefore);
    expect(c.s3.keys()).toEqual(keysBefore);
    // The store still takes a whole file, through either instance.
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'after.txt');
    const stored = await fetch(`${c.instances[0].url}/api/admin/content/spaces/files/assets`, { method: 'POST', headers: { authorization: `Bearer ${c.token}` }, body: form });
    expect(stored.status).toBe(201);
    expect(c.s3.keys()).toHaveLength(keysBefore.length + 1);
  });

  it('PostgreSQL restarted during traffic: /healthz 503 while it is down, no request past 10 s, each instance serving within 5 s of its return', async () => {
    interface Answer { instance: string; path: string; status: number; retryAfter: string | null; ms: number; started: number; at: number }
    const answers: Answer[] = [];
    let running = true;
    const loop = async (instance: number, path: string) => {
      while (running) {
        const started = Date.now();
        let status: number;
        let retryAfter: string | null = null;
        try {
          const res = await fetch(`${c.instances[instance].url}${path}`, { headers: { authorization: `Bearer ${c.token}` }, signal: AbortSignal.timeout(10_000) });
          await res.arrayBuffer();
          status = res.status;
          retryAfter = res.headers.get('retry-after');
        } catch (error) {
          status = (error as Error).name === 'TimeoutError' ? -1 : 0;
        }
        answers.push({ instance: c.instances[instance].name, path, status, retryAfter, ms: Date.now() - started, started, at: Date.now() });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const loops = [0, 1].flatMap((i) => [loop(i, '/healthz'), loop(i, '/api/admin/realms')]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const downAt = Date.now();
    await postgres.stop();
    const stoppedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const startingAt = Date.now();
    await postgres.start();
    const upAt = Date.now();
    const back: Record<string, number> = {};
    await until(() => {
      for (const one of c.instances) {
        const ok = answers.find((a) => a.instance === one.name && a.path === '/api/admin/realms' && a.at > upAt && a.status === 200);
        if (ok && back[one.name] === undefined) back[one.name] = ok.at - upAt;
      }
      return Object.keys(back).length === c.instances.length;
    }, 'both instances to serve again', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await Promise.all(loops);

    db = new pg.Client({ connectionString: c.databaseUrl });
    db.on('error', () => {});
    await db.connect();
    console.log(`PostgreSQL down ${upAt - downAt} ms; back in service after its return: ${JSON.stringify(back)} ms; ${answers.length} requests, slowest ${Math.max(...answers.map((a) => a.ms))} ms`);
    expect(answers.filter((a) => a.status === -1 || a.ms >= 10_000), 'requests past 10 s').toEqual([]);
    expect(answers.filter((a) => a.status === 0), 'requests without an answer').toEqual([]);
    for (const one of c.instances) {
      const whileDown = answers.filter((a) => a.instance === one.name && a.path === '/healthz' && a.started >= stoppedAt && a.at <= startingAt);
      expect(whileDown.length, `${one.name} asked while down`).toBeGreaterThan(0);
      expect(whileDown.every((a) => a.status === 503), `${one.name} /healthz while down: ${whileDown.map((a) => a.status)}`).toBe(true);
      expect(back[one.name], `${one.name} serving again`).toBeLessThan(5000);
    }
    // The admin API says the database is unreachable for a moment (503 with Retry-After), never 500.
    expect(answers.filter((a) => a.status >= 500 && (a.status !== 503 || (a.path !== '/healthz' && a.retryAfter !== '5'))), 'answers other than 503 while down').toEqual([]);
    expect(answers.some((a) => a.path === '/api/admin/realms' && a.status === 503)).toBe(true);
    // Each instance listens again, on its one listening connection, for the others' cache notices and for work (its last statement LISTENs to one of the two).
    await until(async () => (await db.query(`select count(*)::int as n from pg_stat_activity where query in ('listen atrium_broadcast', 'listen atrium_work')`).catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n === c.instances.length, 'both instances listening again', 5000);
  });
});
