// The customers API credential and the OAuth token endpoint, on PostgreSQL:
// 1. GET /api/customers/realms/{uid}/me with a bearer token at 50 connections, next to a bare Fastify route;
// 2. authorization_code exchanges (with PKCE) per second at /oauth/token, next to node-oidc-provider doing the
//    same exchange with its models in PostgreSQL. Codes are issued beforehand on each side; only exchanges are timed.
import { createHash, randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import pg from 'pg';
import { load, row, scratchPostgres, startServer } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const codes = Number(process.env.BENCH_CODES ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
const REDIRECT = 'https://app.example/callback';

const sha256hex = (text) => createHash('sha256').update(text).digest('hex');
const challengeOf = (verifier) => createHash('sha256').update(verifier).digest('base64url');

/** Runs `task(i)` for i < n with `width` requests in flight; answers wall time and latency percentiles. */
async function timed(n, width, task) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) {
      const i = next++;
      const t = performance.now();
      if (!(await task(i))) failures++;
      latencies.push(performance.now() - t);
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
  return { rate: n / elapsed, p50: at(0.5), p99: at(0.99), failures };
}

function exchangeRow(label, figures) {
  const errors = figures.failures ? `, ${figures.failures} failed` : '';
  console.log(`${label.padEnd(44)} ${String(Math.round(figures.rate)).padStart(7)} exchanges/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms${errors}`);
}

const form = (fields) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

async function atriumSide(bareFigures) {
  const scratch = await scratchPostgres();
  if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
  const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10' });
  const admin = (path, body) => fetch(`${atrium.url}${path}`, {
    method: 'POST', headers: { authorization: `Bearer ${atrium.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  }).then(async (res) => { if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`); return res.json(); });
  try {
    await admin('/api/admin/realms', { uid: 'bench', name: 'Bench' });
    const client = await admin('/api/admin/customers/bench/oauth_clients', { name: 'Bench', redirect_uris: [REDIRECT] });
    // A signed-in user: the row the login page would write, with a session secret we know.
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const secret = randomBytes(32).toString('base64url');
    const { rows: [realm] } = await db.query("select id from realms where uid = 'bench'");
    const { rows: [user] } = await db.query("insert into realm_users (realm_id, email) values ($1, 'bench@example.com') returning id", [realm.id]);
    await db.query("insert into realm_sessions (realm_id, user_id, session_hash, expires_at) values ($1, $2, $3, now() + interval '1 day')", [realm.id, user.id, sha256hex(secret)]);
    await db.end();
    const cookie = `atrium_realm_bench=${secret}`;

    // Codes through the real authorize endpoint.
    const issued = [];
    await timed(codes, 10, async () => {
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({ response_type: 'code', client_id: client.uid, redirect_uri: REDIRECT, code_challenge: challengeOf(verifier), code_challenge_method: 'S256', state: 's' });
      const res = await fetch(`${atrium.url}/realms/bench/oauth/authorize?${query}`, { redirect: 'manual', headers: { cookie } });
      const code = new URL(res.headers.get('location')).searchParams.get('code');
      if (!code) throw new Error(`authorize answered ${res.status} ${res.headers.get('location')}`);
      issued.push({ code, verifier });
      return true;
    });

    let token;
    const exchange = await timed(issued.length, concurrency, async (i) => {
      const res = await fetch(`${atrium.url}/realms/bench/oauth/token`, form({
        grant_type: 'authorization_code', code: issued[i].code, code_verifier: issued[i].verifier, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret,
      }));
      const body = await res.json();
      token ??= body.access_token;
      return res.status === 200;
    });

    const meUrl = `${atrium.url}/api/customers/realms/bench/me`;
    const probe = await fetch(meUrl, { headers: { authorization: `Bearer ${token}` } });
    const me = probe.status === 200 ? await load(meUrl, { headers: { authorization: `Bearer ${token}` }, duration }) : null;
    if (me) row('GET /me with a bearer token (PostgreSQL)', me, bareFigures);
    else console.log(`GET /me with a bearer token: not measured (answered ${probe.status}; the customers API is not on this branch)`);
    return exchange;
  } finally {
    await atrium.stop();
    await scratch.drop();
  }
}

async function oidcProviderSide() {
  const scratch = await scratchPostgres();
  const child = fork(new URL('./servers/oidc-provider.js', import.meta.url), [], {
    env: { ...process.env, OIDC_DATABASE_URL: scratch.url }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = () => new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`oidc-provider exited with ${code}`)));
  });
  try {
    const info = await next();
    const reply = next();
    child.send({ issue: codes });
    const { codes: issued } = await reply;
    return await timed(issued.length, concurrency, async (i) => {
      const res = await fetch(`${info.url}/token`, form({
        grant_type: 'authorization_code', code: issued[i].code, code_verifier: issued[i].verifier, redirect_uri: info.redirect_uri,
        client_id: info.client_id, client_secret: info.client_secret,
      }));
      await res.arrayBuffer();
      return res.status === 200;
    });
  } finally {
    await new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });
    await scratch.drop();
  }
}

const bare = await startServer('bare');
const bareFigures = await load(bare.url, { duration });
await bare.stop();
row('bare Fastify route GET /', bareFigures);

const ours = await atriumSide(bareFigures);
const theirs = await oidcProviderSide();
console.log(`\nauthorization_code exchanges with PKCE, ${codes} codes, ${concurrency} in flight, PostgreSQL on both sides:`);
exchangeRow('Atrium POST /realms/{uid}/oauth/token', ours);
exchangeRow('oidc-provider POST /token', theirs);
console.log(`Atrium / oidc-provider: ${(ours.rate / theirs.rate).toFixed(2)}x (target >= 1)`);
