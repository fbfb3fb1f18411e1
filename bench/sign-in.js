// The realm sign-in and the OAuth authorize endpoint, on PostgreSQL:
// 1. password sign-ins per second at POST /realms/{uid}/login (distinct users, so no attempt limit trips),
//    next to the same number of bare scrypt hashes with the server's parameters, at the same concurrency
//    on libuv's thread pool in this process: the hash should be the only cost that matters;
// 2. codes minted per second at GET /realms/{uid}/oauth/authorize for a signed-in user, next to the
//    exchanges of those codes at /oauth/token (both write one row).
// Each pair runs in alternating rounds so that both sides meet the same load on a shared machine.
import { createHash, randomBytes, scrypt } from 'node:crypto';
import pg from 'pg';
import { scratchPostgres, startServer, Tally, timed, verdict } from './lib.js';

const signIns = Number(process.env.BENCH_SIGN_INS ?? 240);
const codes = Number(process.env.BENCH_CODES ?? 2000);
const hashWidth = Number(process.env.BENCH_HASH_CONCURRENCY ?? 4);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
const rounds = 4;
const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'correct horse battery staple';
// src/security/passwords.ts
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

const challengeOf = (verifier) => createHash('sha256').update(verifier).digest('base64url');
const derive = (password, salt) => new Promise((resolve, reject) => {
  scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, SCRYPT, (err, key) => (err ? reject(err) : resolve(key)));
});
const form = (fields, headers = {}) => ({
  method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString(),
});

function rateRow(label, unit, figures) {
  const errors = figures.failures ? `, ${figures.failures} failed` : '';
  console.log(`${label.padEnd(48)} ${String(Math.round(figures.rate)).padStart(6)} ${unit}/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms${errors}`);
}

/** Alternates `rounds` rounds of two sides over [0, count) and prints both rates and their ratio. */
async function compare(title, count, sides, target) {
  const tallies = sides.map(() => new Tally());
  for (let r = 0; r < rounds; r++) {
    const from = Math.floor((count * r) / rounds);
    const to = Math.floor((count * (r + 1)) / rounds);
    for (const [k, side] of sides.entries()) await timed(from, to, side.width, side.task, tallies[k]);
  }
  const [a, b] = tallies.map((t) => t.figures());
  console.log(`\n${title}:`);
  rateRow(sides[0].label, sides[0].unit, a);
  rateRow(sides[1].label, sides[1].unit, b);
  console.log(`${sides[0].unit} / ${sides[1].unit}: ${(a.rate / b.rate).toFixed(2)} (target >= ${target})`);
  verdict(title, { figure: `${a.rate.toFixed(0)} ${sides[0].unit}/s`, comparison: `${sides[1].label} ${b.rate.toFixed(0)} ${sides[1].unit}/s: ${(a.rate / b.rate).toFixed(2)}x`, target: `≥ ${target}x`, met: a.rate / b.rate >= target });
}

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10' });
try {
  const admin = (path, body) => fetch(`${atrium.url}${path}`, {
    method: 'POST', headers: { authorization: `Bearer ${atrium.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  }).then(async (res) => { if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`); return res.json(); });
  await admin('/api/admin/realms', { uid: 'bench', name: 'Bench' });
  const client = await admin('/api/admin/customers/bench/oauth_clients', { name: 'Bench', redirect_uris: [REDIRECT] });

  // Users with one known password: the stored hash the server itself would write (computed once here).
  const salt = randomBytes(16);
  const stored = ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), (await derive(PASSWORD, salt)).toString('base64url')].join('$');
  const db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  await db.query(`insert into realm_users (realm_id, email, username, password_hash)
    select r.id, 'user' || i || '@example.com', 'user' || i, $1 from realms r, generate_series(0, $2 - 1) i where r.uid = 'bench'`, [stored, signIns]);
  await db.end();

  // One GET of the login page gives the CSRF cookie and field every sign-in posts.
  const page = await fetch(`${atrium.url}/realms/bench/login`);
  const csrf = /atrium_csrf=([^;]+)/.exec(page.headers.get('set-cookie'))[1];
  let sessionCookie;
  const signIn = async (i) => {
    const res = await fetch(`${atrium.url}/realms/bench/login`, form(
      { username: `user${i}`, password: PASSWORD, csrf_token: csrf }, { cookie: `atrium_csrf=${csrf}` },
    ));
    await res.arrayBuffer();
    sessionCookie ??= /(atrium_realm_bench=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    return res.status === 303;
  };
  const hash = async () => { await derive(PASSWORD, salt); return true; };
  await compare(`password sign-ins, ${signIns} per side, ${hashWidth} in flight, ${rounds} alternating rounds`, signIns, [
    { label: 'Atrium POST /realms/{uid}/login', unit: 'sign-ins', width: hashWidth, task: signIn },
    { label: 'bare scrypt (N=16384, r=8, p=1), same process pool', unit: 'hashes', width: hashWidth, task: hash },
  ], 0.8);

  // Authorizes mint the codes the exchanges then spend, round by round.
  if (!sessionCookie) throw new Error('no sign-in succeeded');
  const issued = [];
  const authorizeOne = async (i) => {
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({ response_type: 'code', client_id: client.uid, redirect_uri: REDIRECT, code_challenge: challengeOf(verifier), code_challenge_method: 'S256', state: 's' });
    const res = await fetch(`${atrium.url}/realms/bench/oauth/authorize?${query}`, { redirect: 'manual', headers: { cookie: sessionCookie } });
    await res.arrayBuffer();
    const code = res.status === 302 && new URL(res.headers.get('location')).searchParams.get('code');
    issued[i] = { code, verifier };
    return !!code;
  };
  const exchange = async (i) => {
    const res = await fetch(`${atrium.url}/realms/bench/oauth/token`, form({
      grant_type: 'authorization_code', code: issued[i].code, code_verifier: issued[i].verifier, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret,
    }));
    await res.arrayBuffer();
    return res.status === 200;
  };
  await compare(`authorization codes, ${codes} per side, ${concurrency} in flight, ${rounds} alternating rounds, PostgreSQL`, codes, [
    { label: 'Atrium GET /realms/{uid}/oauth/authorize', unit: 'codes', width: concurrency, task: authorizeOne },
    { label: 'Atrium POST /realms/{uid}/oauth/token', unit: 'exchanges', width: concurrency, task: exchange },
  ], 1);
} finally {
  await atrium.stop();
  await scratch.drop();
}
