// Webhooks on PostgreSQL. (i) A backlog of 5,000 deliveries (realm_user.updated bodies written straight
// into the outbox, then made due at once) drained by the server's senders to a local receiver (its own
// process), next to raw `fetch` POSTs of the same signed payloads to the same receiver from this process,
// 50 in flight, in the same run. (ii) The outbox's cost on the write that causes it: PUT of a realm user
// (a new first name each request, over 200 users, 50 connections) with no endpoint subscribed and with one
// subscribed to realm_user.updated, in alternating rounds, on an instance that sends none (WEBHOOK_SENDERS=0, as
// an instance that only serves the API) so that only the write is measured.
import { createHmac, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { adminApi, scratchPostgres, startServer, verdict } from './lib.js';

const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 5000);
const duration = Number(process.env.BENCH_SECONDS ?? 5);
// Five rounds a side: with three, the PUT comparison's figure ranged over 7–18% in six runs on one quiet machine (2026-11-28).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const USERS = 200;
const IN_FLIGHT = 50;

const sink = await startServer('webhook-sink');
const received = () => new Promise((resolve) => {
  sink.child.once('message', (m) => resolve(m.received));
  sink.child.send('count');
});

const body = (i) => JSON.stringify({
  type: 'realm_user.updated', timestamp: new Date().toISOString(),
  data: {
    realm_uid: 'bench', id: i, uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, email: `user${i}@example.com`,
    first_name: `First ${i}`, last_name: 'Last', active: true, custom_fields: { plan: 'pro' }, changed: ['first_name'],
  },
});

/** The same kind of payloads, signed as the server signs them, POSTed with fetch (undici, kept-alive) 50 at a time. */
async function rawFetch(secret) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const payloads = Array.from({ length: BACKLOG }, (_, i) => {
    const id = `msg_${randomBytes(16).toString('hex')}`;
    const text = body(i);
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest('base64')}`;
    return { text, headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature, 'content-type': 'application/json' } };
  });
  const before = await received();
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < payloads.length) {
      const { text, headers } = payloads[next++];
      const res = await fetch(sink.url, { method: 'POST', headers, body: text });
      await res.arrayBuffer();
      if (res.status !== 204) throw new Error(`the receiver answered ${res.status}`);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  if ((await received()) - before !== BACKLOG) throw new Error('the receiver did not get every POST');
  return { rate: BACKLOG / seconds, seconds };
}

/** The backlog written into the outbox not yet due, then made due in one statement; timed until every row is `succeeded`. */
async function drained(db, endpointId) {
  await db.query(`insert into webhook_deliveries (msg_id, endpoint_id, event_type, body, next_attempt_at)
    select 'msg_' || replace(gen_random_uuid()::text, '-', ''), $1, 'realm_user.updated', $2, now() + interval '1 day'
    from generate_series(1, ${BACKLOG})`, [endpointId, body(1)]);
  const before = await received();
  const started = performance.now();
  await db.query("update webhook_deliveries set next_attempt_at = now() where status = 'pending'");
  // Written past the outbox, so woken as the outbox wakes them once its rows are committed.
  await db.query("select pg_notify('atrium_work', 'webhooks')");
  for (;;) {
    const { rows: [{ n }] } = await db.query("select count(*)::int as n from webhook_deliveries where status <> 'succeeded'");
    if (n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  const got = (await received()) - before;
  if (got !== BACKLOG) throw new Error(`the receiver got ${got} of ${BACKLOG}`);
  return { rate: BACKLOG / seconds, seconds };
}

/** PUTs of realm users, each with a new first name (so each one changes the user and emits realm_user.updated). */
async function updates(atrium, ids) {
  let n = 0;
  const result = await autocannon({
    url: atrium.url, connections: 50, duration,
    requests: [{
      method: 'PUT', headers: { authorization: `Bearer ${atrium.token}`, 'content-type': 'application/json' },
      setupRequest: (request) => {
        n++;
        return { ...request, path: `/api/admin/customers/bench/users/${ids[n % ids.length]}`, body: JSON.stringify({ first_name: `Name ${n}` }) };
      },
    }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const db = new pg.Client({ connectionString: scratch.url });
let atrium;
try {
  // (i) senders polling every 20 ms, as an idle production server polls every second.
  atrium = await startServer('atrium', { DATABASE_URL: scratch.url, WEBHOOKS_ALLOW_PRIVATE: '1', WEBHOOKS_POLL_MS: '20' });
  let admin = adminApi(atrium);
  await admin('POST', '/realms', { uid: 'bench', name: 'Bench' });
  const endpoint = await admin('POST', '/webhooks', { url: sink.url, event_types: ['realm_user.updated'] });
  await db.connect();
  // Alternating rounds after a warm-up of each side; the best of each is kept.
  await rawFetch(endpoint.secret);
  await drained(db, endpoint.id);
  const best = { fetch: 0, atrium: 0 };
  for (let round = 0; round < 2; round++) {
    const fetched = await rawFetch(endpoint.secret);
    console.log(`raw fetch, ${BACKLOG.toLocaleString('en')} signed POSTs, ${IN_FLIGHT} in flight: ${Math.round(fetched.rate)} POSTs/s (${fetched.seconds.toFixed(1)} s)`);
    const sent = await drained(db, endpoint.id);
    console.log(`atrium senders, a backlog of ${BACKLOG.toLocaleString('en')} deliveries: ${Math.round(sent.rate)} deliveries/s (${sent.seconds.toFixed(1)} s)`);
    best.fetch = Math.max(best.fetch, fetched.rate);
    best.atrium = Math.max(best.atrium, sent.rate);
  }
  console.log(`deliveries: ${Math.round(best.atrium)}/s against ${Math.round(best.fetch)} raw fetch POSTs/s (best rounds): ${Math.round((best.atrium / best.fetch) * 100)}% (target ≥ 50%)`);
  verdict('webhook deliveries', { figure: `${Math.round(best.atrium)}/s`, comparison: `${Math.round((best.atrium / best.fetch) * 100)}% of ${Math.round(best.fetch)} raw fetch POSTs/s`, target: '≥ 50%', met: best.atrium / best.fetch >= 0.5 });
  await atrium.stop();

  // (ii) no senders: only the write and its outbox row are measured.
  const { token } = atrium;
  atrium = await startServer('atrium', { DATABASE_URL: scratch.url, WEBHOOKS_ALLOW_PRIVATE: '1', WEBHOOK_SENDERS: '0' });
  atrium.token = token;
  admin = adminApi(atrium);
  await admin('PUT', `/webhooks/${endpoint.id}`, { active: false });
  const ids = [];
  for (let i = 0; i < USERS; i++) ids.push((await admin('POST', '/customers/bench/users', { email: `bench-${i}@example.com`, first_name: 'First' })).id);
  await updates(atrium, ids);
  const tally = { without: [], with: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of ['without', 'with']) {
      await admin('PUT', `/webhooks/${endpoint.id}`, { active: side === 'with' });
      const before = Number((await db.query('select count(*) from webhook_deliveries')).rows[0].count);
      const figures = await updates(atrium, ids);
      const queued = Number((await db.query('select count(*) from webhook_deliveries')).rows[0].count) - before;
      tally[side].push(figures.rps);
      console.log(`round ${round + 1}, ${side === 'with' ? 'one endpoint subscribed' : 'no endpoint subscribed'}: ${Math.round(figures.rps)} PUT/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms`
        + `${figures.non2xx ? `, ${figures.non2xx} non-2xx` : ''}, ${queued} deliveries queued`);
    }
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`realm-user PUT: ${Math.round(mean(tally.without))} req/s without, ${Math.round(mean(tally.with))} req/s with one endpoint subscribed: `
    + `${Math.round((1 - mean(tally.with) / mean(tally.without)) * 100)}% slower (target ≤ 15%)`);
  verdict('realm-user PUT with one webhook endpoint subscribed', { figure: `${Math.round(mean(tally.with))} req/s`, comparison: `${Math.round((1 - mean(tally.with) / mean(tally.without)) * 100)}% slower than ${Math.round(mean(tally.without))} req/s without`, target: '≤ 15% slower', met: 1 - mean(tally.with) / mean(tally.without) <= 0.15 });
} finally {
  await atrium?.stop();
  await db.end().catch(() => {});
  await scratch.drop();
  await sink.stop();
}
