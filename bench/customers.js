// The customers API credential and the OAuth token endpoint, on PostgreSQL:
// 1. GET /api/customers/realms/{uid}/me with a bearer token at 50 connections, next to a bare Fastify route;
// 2. authorization_code exchanges (with PKCE) per second at /oauth/token, next to node-oidc-provider doing the
//    same exchange with its models in PostgreSQL. Codes are issued beforehand on each side; only exchanges are timed.
import { createHash, randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import pg from 'pg';
import { load, row, scratchPostgres, startServer, Tally, timed, verdict } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const codes = Number(process.env.BENCH_CODES ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
const REDIRECT = 'https://app.example/callback';

const sha256hex = (text) => createHash('sha256').update(text).digest('hex');
const challengeOf = (verifier) => createHash('sha256').update(verifier).digest('base64url');

function exchangeRow(label, figures) {
  const errors = figures.failures ? `, ${figures.failures} failed` : '';
  console.log(`${label.padEnd(44)} ${String(Math.round(figures.rate)).padStart(7)} exchanges/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms${errors}`);
}

const form = (fields) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

/** Atrium on a fresh PostgreSQL database: a realm, a client, a signed-in user and `codes` codes from its authorize endpoint. */
async function startAtrium() {
  const scratch = await scratchPostgres();
  if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
  const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10' });
  const stop = async () => { await atrium.stop(); await scratch.drop(); };
  const admin = (path, body) => fetch(`${atrium.url}${path}`, {
    method: 'POST', headers: { authorization: `Bearer ${atrium.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  }).then(async (res) => { if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`); return res.json(); });
  try {
    await admin('/api/admin/realms', { uid: 'bench', name: 'Bench' });
    const client = await admin('/api/admin/customers/bench/oauth_clients', { name: 'Bench', redirect_uris: [REDIRECT] });
    // A signed-in user: the rows the login page would write, with a session secret we know.
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
    await timed(0, codes, 10, async () => {
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({ response_type: 'code', client_id: client.uid, redirect_uri: REDIRECT, code_challenge: challengeOf(verifier), code_challenge_method: 'S256', state: 's' });
      const res = await fetch(`${atrium.url}/realms/bench/oauth/authorize?${query}`, { redirect: 'manual', headers: { cookie } });
      const code = new URL(res.headers.get('location')).searchParams.get('code');
      if (!code) throw new Error(`authorize answered ${res.status} ${res.headers.get('location')}`);
      issued.push({ code, verifier });
      return true;
    });
    let token;
    const exchange = async (i) => {
      const res = await fetch(`${atrium.url}/realms/bench/oauth/token`, form({
        grant_type: 'authorization_code', code: issued[i].code, code_verifier: issued[i].verifier, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret,
      }));
      const body = await res.json();
      token ??= body.access_token;
      return res.status === 200;
    };
    return { url: atrium.url, exchange, token: () => token, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** node-oidc-provider on its own fresh PostgreSQL database, with `codes` codes made by its own models. */
async function startOidcProvider() {
  const scratch = await scratchPostgres();
  const child = fork(new URL('./servers/oidc-provider.js', import.meta.url), [], {
    env: { ...process.env, OIDC_DATABASE_URL: scratch.url }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = () => new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`oidc-provider exited with ${code}`)));
  });
  const stop = async () => {
    await new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });
    await scratch.drop();
  };
  const info = await next();
  const reply = next();
  child.send({ issue: codes });
  const { codes: issued } = await reply;
  const exchange = async (i) => {
    const res = await fetch(`${info.url}/token`, form({
      grant_type: 'authorization_code', code: issued[i].code, code_verifier: issued[i].verifier, redirect_uri: info.redirect_uri,
      client_id: info.client_id, client_secret: info.client_secret,
    }));
    await res.arrayBuffer();
    return res.status === 200;
  };
  return { exchange, stop };
}

// 1. GET /me next to the bare route, measured before and after it to even out the machine's drift.
const bare = await startServer('bare');
const ours = await startAtrium();
const theirs = await startOidcProvider();
try {
  const bareBefore = await load(bare.url, { duration });
  // One exchange gives the token GET /me is measured with.
  await ours.exchange(0);
  const meUrl = `${ours.url}/api/customers/realms/bench/me`;
  const headers = { authorization: `Bearer ${ours.token()}` };
  const probe = await fetch(meUrl, { headers });
  if (probe.status === 200) await load(meUrl, { headers, duration: 1 }); // warm-up, as the admin list's
  const me = probe.status === 200 ? await load(meUrl, { headers, duration }) : null;
  const bareAfter = await load(bare.url, { duration });
  const bareFigures = { rps: (bareBefore.rps + bareAfter.rps) / 2, p50: Math.max(bareBefore.p50, bareAfter.p50), p99: Math.max(bareBefore.p99, bareAfter.p99), non2xx: 0 };
  row('bare Fastify route GET / (mean of two runs)', bareFigures);
  if (me) row('GET /me with a bearer token (PostgreSQL)', me, bareFigures);
  else console.log(`GET /me with a bearer token: not measured (answered ${probe.status})`);
  // Issue 30 item 3: ≥ 60% of the bare route.
  verdict('GET /me with a bearer token at 50 connections', {
    figure: me ? `${Math.round(me.rps)} req/s` : `not measured (${probe.status})`,
    comparison: me ? `${Math.round((me.rps / bareFigures.rps) * 100)}% of the bare route's ${Math.round(bareFigures.rps)} req/s` : 'none',
    target: '≥ 60% of the bare route', met: !!me && !me.non2xx && me.rps >= 0.6 * bareFigures.rps,
  });

  // 2. Exchanges, in alternating rounds so that both sides meet the same load on a shared machine.
  const rounds = 4;
  const ourTally = new Tally();
  const theirTally = new Tally();
  for (let r = 0; r < rounds; r++) {
    const from = Math.max(1, Math.floor((codes * r) / rounds));
    const to = Math.floor((codes * (r + 1)) / rounds);
    await timed(from, to, concurrency, ours.exchange, ourTally);
    await timed(from, to, concurrency, theirs.exchange, theirTally);
  }
  const a = ourTally.figures();
  const b = theirTally.figures();
  console.log(`\nauthorization_code exchanges with PKCE, ${codes} codes per side, ${concurrency} in flight, ${rounds} alternating rounds, PostgreSQL on both sides:`);
  exchangeRow('Atrium POST /realms/{uid}/oauth/token', a);
  exchangeRow('oidc-provider POST /token', b);
  console.log(`Atrium / oidc-provider: ${(a.rate / b.rate).toFixed(2)}x (target >= 1)`);
  verdict('authorization_code exchanges with PKCE', { figure: `${Math.round(a.rate)}/s`, comparison: `oidc-provider ${Math.round(b.rate)}/s: ${(a.rate / b.rate).toFixed(2)}x`, target: '≥ 1x', met: a.rate >= b.rate });
} finally {
  await ours.stop();
  await theirs.stop();
  await bare.stop();
}
