// OpenID Connect on a realm (issue 31), on PostgreSQL, next to node-oidc-provider with its models in memory in the
// same run (the issue's harness: 20 in flight, 20 users, codes issued beforehand on each side, only the timed requests count):
// 1. authorization_code exchanges with PKCE and the scope `openid offline_access`: each answer carries a signed
//    ID token and a refresh token (target ≥ 0.8× oidc-provider, with Atrium's exchanges durable in PostgreSQL);
// 2. refresh_token grants, each token used once, rotated on both sides (a new refresh token, access token and ID token
//    per refresh; oidc-provider rotates a confidential client's tokens only when told to, as it is here; target ≥ 0.8×).
// BENCH_CPU_PROFILE=<folder> (bench/lib.js): the Atrium instance writes a V8 CPU profile there when it stops.
import { createHash, randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { scratchPostgres, startServer, Tally, timed, verdict } from './lib.js';

const codes = Number(process.env.BENCH_CODES ?? 2000);
/** Exchanged and refreshed once on each side before the timed rounds, so that neither is timed while its code is compiled. */
const WARM = 200;
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
const REDIRECT = 'https://app.example/callback';
const SCOPE = 'openid offline_access';
/** The codes are spread over this many signed-in users, a session each (the issue's harness: 20 users). */
const USERS = 20;

const sha256hex = (text) => createHash('sha256').update(text).digest('hex');
const challengeOf = (verifier) => createHash('sha256').update(verifier).digest('base64url');
const form = (fields) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

function line(label, figures, unit) {
  const errors = figures.failures ? `, ${figures.failures} failed` : '';
  console.log(`${label.padEnd(44)} ${String(Math.round(figures.rate)).padStart(7)} ${unit}/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms${errors}`);
}

/** A side of the comparison: exchanges code i, then refreshes with the refresh token exchange i gave. */
function side(tokenUrl, client, issued) {
  const refreshTokens = [];
  const post = async (fields, expect) => {
    const res = await fetch(tokenUrl, form({ ...fields, client_id: client.id, client_secret: client.secret }));
    const body = await res.json();
    return res.status === 200 && expect.every((name) => typeof body[name] === 'string') ? body : null;
  };
  return {
    exchange: async (i) => {
      const body = await post({ grant_type: 'authorization_code', code: issued[i].code, code_verifier: issued[i].verifier, redirect_uri: REDIRECT }, ['access_token', 'id_token', 'refresh_token']);
      if (body) refreshTokens[i] = body.refresh_token;
      return body !== null;
    },
    refresh: async (i) => refreshTokens[i] !== undefined && (await post({ grant_type: 'refresh_token', refresh_token: refreshTokens[i] }, ['access_token', 'refresh_token'])) !== null,
  };
}

/** Atrium on a fresh PostgreSQL database: a realm with OpenID Connect, a client that lists offline_access, USERS signed-in users, `codes` codes. */
async function startAtrium() {
  const scratch = await scratchPostgres();
  if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
  const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10' });
  const stop = async () => { await atrium.stop(); await scratch.drop(); };
  const admin = (method, path, body) => fetch(`${atrium.url}${path}`, {
    method, headers: { authorization: `Bearer ${atrium.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  }).then(async (res) => { if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`); return res.json(); });
  try {
    await admin('POST', '/api/admin/realms', { uid: 'bench', name: 'Bench', settings: { openid_connect_enabled: true } });
    const client = await admin('POST', '/api/admin/customers/bench/oauth_clients', { name: 'Bench', redirect_uris: [REDIRECT], scopes: ['openid', 'offline_access'] });
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const { rows: [realm] } = await db.query("select id from realms where uid = 'bench'");
    const secrets = [];
    for (let u = 0; u < USERS; u++) {
      const secret = randomBytes(32).toString('base64url');
      const { rows: [user] } = await db.query('insert into realm_users (realm_id, email) values ($1, $2) returning id', [realm.id, `bench${u}@example.com`]);
      await db.query("insert into realm_sessions (realm_id, user_id, session_hash, expires_at, auth_methods) values ($1, $2, $3, now() + interval '1 day', '{pwd}')", [realm.id, user.id, sha256hex(secret)]);
      secrets.push(secret);
    }
    await db.end();
    const issued = [];
    await timed(0, WARM + codes, 10, async (i) => {
      const secret = secrets[i % USERS];
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({ response_type: 'code', client_id: client.uid, redirect_uri: REDIRECT, scope: SCOPE, nonce: 'n', code_challenge: challengeOf(verifier), code_challenge_method: 'S256', state: 's' });
      const res = await fetch(`${atrium.url}/realms/bench/oauth/authorize?${query}`, { redirect: 'manual', headers: { cookie: `atrium_realm_bench=${secret}` } });
      const code = new URL(res.headers.get('location')).searchParams.get('code');
      if (!code) throw new Error(`authorize answered ${res.status} ${res.headers.get('location')}`);
      issued.push({ code, verifier });
      return true;
    });
    return { ...side(`${atrium.url}/realms/bench/oauth/token`, { id: client.uid, secret: client.secret }, issued), pid: atrium.pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** node-oidc-provider with its models in memory, `codes` codes of the same scope made by its own models. */
async function startOidcProvider() {
  const { OIDC_DATABASE_URL: _none, ...env } = process.env;
  const child = fork(new URL('./servers/oidc-provider.js', import.meta.url), [], { env: { ...env, OIDC_SCOPE: SCOPE }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const next = () => new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`oidc-provider exited with ${code}`)));
  });
  const info = await next();
  const reply = next();
  child.send({ issue: WARM + codes });
  const { codes: issued } = await reply;
  const stop = () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });
  return { ...side(`${info.url}/token`, { id: info.client_id, secret: info.client_secret }, issued), pid: child.pid, stop };
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

const ours = await startAtrium();
const theirs = await startOidcProvider();
try {
  // Alternating rounds, so that both sides meet the same load on a shared machine.
  const rounds = 4;
  const tallies = { ourExchanges: new Tally(), theirExchanges: new Tally(), ourRefreshes: new Tally(), theirRefreshes: new Tally() };
  for (const task of [ours.exchange, theirs.exchange, ours.refresh, theirs.refresh]) await timed(0, WARM, concurrency, task);
  for (let r = 0; r < rounds; r++) {
    const from = WARM + Math.floor((codes * r) / rounds);
    const to = WARM + Math.floor((codes * (r + 1)) / rounds);
    await timed(from, to, concurrency, ours.exchange, tallies.ourExchanges);
    await timed(from, to, concurrency, theirs.exchange, tallies.theirExchanges);
  }
  for (let r = 0; r < rounds; r++) {
    const from = WARM + Math.floor((codes * r) / rounds);
    const to = WARM + Math.floor((codes * (r + 1)) / rounds);
    await timed(from, to, concurrency, ours.refresh, tallies.ourRefreshes);
    await timed(from, to, concurrency, theirs.refresh, tallies.theirRefreshes);
  }
  const ourRss = rssOf(ours.pid);
  const theirRss = rssOf(theirs.pid);
  const [a, b, c, d] = [tallies.ourExchanges, tallies.theirExchanges, tallies.ourRefreshes, tallies.theirRefreshes].map((t) => t.figures());
  console.log(`\nscope "${SCOPE}", ${codes} per side, ${concurrency} in flight, ${rounds} alternating rounds; Atrium on PostgreSQL, oidc-provider in memory:`);
  line('Atrium code exchange (ID + refresh token)', a, 'exchanges');
  line('oidc-provider code exchange (same)', b, 'exchanges');
  line('Atrium refresh (rotated)', c, 'refreshes');
  line('oidc-provider refresh', d, 'refreshes');
  console.log(`RSS after the run: Atrium ${ourRss.toFixed(0)} MB, oidc-provider ${theirRss.toFixed(0)} MB`);
  verdict('OpenID Connect code exchanges with an ID token', { figure: `${Math.round(a.rate)}/s`, comparison: `oidc-provider in memory ${Math.round(b.rate)}/s: ${(a.rate / b.rate).toFixed(2)}x`, target: '≥ 0.8x', met: a.rate >= 0.8 * b.rate && !a.failures });
  verdict('OpenID Connect refreshes', { figure: `${Math.round(c.rate)}/s`, comparison: `oidc-provider in memory ${Math.round(d.rate)}/s: ${(c.rate / d.rate).toFixed(2)}x`, target: '≥ 0.8x', met: c.rate >= 0.8 * d.rate && !c.failures });
} finally {
  await ours.stop();
  await theirs.stop();
}
