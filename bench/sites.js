// Sites on PostgreSQL (issue 27's targets): a site of 1,000 pages (home, a personal page and 10 sections
// made over the admin API, 988 children of the sections written straight into site_pages), each with a
// content list block of 20 of 200 published entries (written with SQL). Measured:
// 1. POST /publish of the whole site (target < 5 s);
// 2. a cached public page at 50 connections, one page asked over and over and 100 pages in turn, next to a
//    bare Fastify route serving the same bytes (target ≥ 50% of the bare route, p99 < 10 ms);
// 3. a page whose layout reads `user` (rendered for every request) at 20 connections with a signed-in
//    realm user's cookie (target p99 < 50 ms);
// 4. a publish on one instance seen by a second instance on the same database (target < 1 s).
// BENCH_SECONDS sets each load's seconds (5).
import autocannon from 'autocannon';
import pg from 'pg';
import { adminApi, load, row, scratchPostgres, START_FLAGS, startServer, verdict } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const ENTRIES = 200;
const CHILDREN = 988;
const SPREAD = 100;
const ROUNDS = 5;

const LAYOUT = '<!doctype html><html lang="{{ locale }}"><head><meta charset="utf-8"><title>{{ page.title }} · {{ site.name }}</title>'
  + '<meta name="description" content="{{ page.description }}"></head><body><header><a href="{{ site.url }}">{{ site.name }}</a></header>'
  + '<main><h1>{{ page.title }}</h1>{% zone "main" %}</main><footer>© {{ site.name }}</footer></body></html>';
const PERSONAL = '<!doctype html><html lang="{{ locale }}"><head><meta charset="utf-8"><title>{{ page.title }} · {{ site.name }}</title></head>'
  + '<body><header>{% if user %}Hi {{ user.first_name }}{% endif %}</header><main><h1>{{ page.title }}</h1>{% zone "main" %}</main></body></html>';
const PASSWORD = 'a long secret 1';

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const env = { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10' };
// BENCH_CPU_PROF=<folder>: instance A and the bare server write a V8 CPU profile there when it stops (node --cpu-prof).
const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
let atrium;
let second;
let bare;
const db = new pg.Client({ connectionString: scratch.url });
try {
  // Started inside the try, so that the scratch database is dropped even when the server does not start.
  atrium = await startServer('atrium', env, [...START_FLAGS, ...profile]);
  const admin = adminApi(atrium);
  await admin('POST', '/content/spaces', { uid: 'bench', name: 'Bench', default_locale: 'en', locales: ['en'] });
  await admin('POST', '/content/spaces/bench/types', { uid: 'article', name: 'Article', fields: [{ name: 'title', type: 'text', localized: true }] });
  await db.connect();
  const { rows: [type] } = await db.query("select t.id, t.space_id from content_types t where t.uid = 'article'");
  await db.query(`insert into content_entries (space_id, type_id, created_at, updated_at)
    select $1, $2, now() - make_interval(mins => g), now() - make_interval(mins => g) from generate_series(1, ${ENTRIES}) g`, [type.space_id, type.id]);
  await db.query(`insert into content_entry_versions (entry_id, type_id, locale, state, name, slug, fields, tags, published_at, created_at, updated_at)
    select e.id, e.type_id, 'en', 'published', 'Article ' || e.id, 'article-' || e.id, jsonb_build_object('title', 'Article ' || e.id),
      array[]::text[], e.created_at, e.created_at, e.created_at
    from content_entries e where e.type_id = $1`, [type.id]);

  await admin('POST', '/realms', { uid: 'bench', name: 'Bench' });
  await admin('POST', '/sites', { uid: 'bench', name: 'Bench site', default_locale: 'en', locales: ['en'], space_uids: ['bench'], realm_uid: 'bench' });
  await admin('POST', '/sites/bench/layouts', { name: 'main', source: LAYOUT });
  await admin('POST', '/sites/bench/layouts', { name: 'personal', source: PERSONAL });
  const blocks = [{ zone: 'main', type: 'content_list', space_uid: 'bench', type_uid: 'article', limit: 20 }];
  const page = (layout, title, slug, parent_id = null) => admin('POST', '/sites/bench/layout_pages', { parent_id, layout, locales: { en: { title, slug } }, blocks });
  const started = performance.now();
  await page('main', 'Home', '');
  const personal = await page('personal', 'Your page', 'you');
  const sections = [];
  for (let s = 0; s < 10; s++) sections.push(await page('main', `Section ${s}`, `section-${s}`));
  const { rows: [site] } = await db.query("select id from sites where uid = 'bench'");
  await db.query(`insert into site_pages (site_id, parent_id, position, layout, visibility, locales, blocks, created_at, updated_at)
    select $1, ($2::int[])[1 + (g - 1) % 10], (g - 1) / 10, 'main', 'public',
      jsonb_build_object('en', jsonb_build_object('title', 'Page ' || g, 'description', '', 'slug', 'page-' || g)), $3::jsonb, now(), now()
    from generate_series(1, ${CHILDREN}) g`, [site.id, sections.map((s) => s.id), JSON.stringify(blocks)]);
  const { rows: [{ count }] } = await db.query('select count(*)::int as count from site_pages where site_id = $1', [site.id]);
  await db.query('vacuum analyze site_pages');
  await db.query('vacuum analyze content_entry_versions');
  console.log(`a site of ${count.toLocaleString('en')} pages (12 over the admin API, ${CHILDREN} with SQL), each with a content list of 20 of ${ENTRIES} published entries, built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // 1. Publishing the whole site.
  const publishStarted = performance.now();
  const version = await admin('POST', '/sites/bench/publish', { note: 'Bench' });
  const publishSeconds = (performance.now() - publishStarted) / 1000;
  const { rows: [{ bytes, stored }] } = await db.query('select octet_length(snapshot::text) as bytes, pg_column_size(snapshot) as stored from site_versions where site_id = $1 and number = $2', [site.id, version.number]);
  console.log(`\nPOST /sites/bench/publish of ${count} pages: ${publishSeconds.toFixed(2)} s (version ${version.number}, ${version.changes.length} changes, a snapshot of ${(bytes / 1024).toFixed(0)} KiB as JSON, ${(stored / 1024).toFixed(0)} KiB stored compressed)`);
  verdict(`publish of a site of ${count} pages`, { figure: `${publishSeconds.toFixed(2)} s`, comparison: `${version.changes.length} changes, a ${(bytes / 1024).toFixed(0)} KiB snapshot (JSON)`, target: '< 5 s', met: publishSeconds < 5 });

  // 2. Cached public pages: one page, and 100 pages in turn (the home, the sections and children of every section).
  const onePath = '/sites/bench/section-3/page-504';
  const first = await fetch(`${atrium.url}${onePath}`);
  const body = await first.text();
  if (first.status !== 200 || (body.match(/<li>/g) ?? []).length !== 20) throw new Error(`${onePath} answered ${first.status}: ${body.slice(0, 300)}`);
  const paths = ['/sites/bench/', ...Array.from({ length: 10 }, (_, s) => `/sites/bench/section-${s}`),
    ...Array.from({ length: SPREAD - 11 }, (_, i) => { const g = 1 + i * 11; return `/sites/bench/section-${(g - 1) % 10}/page-${g}`; })];
  for (const path of paths) {
    const res = await fetch(`${atrium.url}${path}`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  }
  const headers = { 'content-type': first.headers.get('content-type'), 'cache-control': first.headers.get('cache-control'), etag: first.headers.get('etag') };
  bare = await startServer('bare', { BARE_PAGE: body, BARE_PAGE_HEADERS: JSON.stringify(headers) }, profile);
  const bareCheck = await fetch(`${bare.url}/page`);
  if ((await bareCheck.text()) !== body) throw new Error('the bare route does not answer the same bytes');
  console.log(`the page: ${Buffer.byteLength(body)} bytes of HTML (${onePath}); the bare route GET /page answers the same bytes and headers`);

  let n = 0;
  const spread = async (connections) => {
    const result = await autocannon({
      url: atrium.url, connections, duration,
      requests: [{ setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length] }) }],
    });
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
  };
  await load(`${atrium.url}${onePath}`, { duration: 2 });
  await spread(50);
  const bareBefore = await load(`${bare.url}/page`, { duration });
  const one = await load(`${atrium.url}${onePath}`, { duration });
  const hundred = await spread(50);
  const bareAfter = await load(`${bare.url}/page`, { duration });
  const bareFigures = { rps: (bareBefore.rps + bareAfter.rps) / 2, p50: Math.max(bareBefore.p50, bareAfter.p50), p99: Math.max(bareBefore.p99, bareAfter.p99), non2xx: 0 };
  console.log(`\n50 connections, ${duration} s each (target ≥ 50% of the bare route, p99 < 10 ms):`);
  row('bare Fastify route, the same bytes (mean of 2)', bareFigures);
  row('one cached page, asked over and over', one, bareFigures);
  row(`${paths.length} cached pages in turn`, hundred, bareFigures);
  for (const [what, figures] of [['one cached public page', one], [`${paths.length} cached public pages in turn`, hundred]]) {
    verdict(`${what} at 50 connections`, {
      figure: `${Math.round(figures.rps)} req/s, p99 ${figures.p99} ms`,
      comparison: `${Math.round((figures.rps / bareFigures.rps) * 100)}% of the bare route serving the same bytes (${Math.round(bareFigures.rps)} req/s, p99 ${bareFigures.p99} ms)`,
      target: '≥ 50% of the bare route and p99 < 10 ms', met: figures.rps / bareFigures.rps >= 0.5 && figures.p99 < 10 && !figures.non2xx,
    });
  }

  // 3. A page that reads `user`, with a signed-in realm user's cookie.
  await admin('POST', '/customers/bench/users', { email: 'ada@example.com', password: PASSWORD, first_name: 'Ada', last_name: 'Lovelace' });
  const login = await fetch(`${atrium.url}/realms/bench/login`);
  const loginPage = await login.text();
  const csrfCookie = /atrium_csrf=([^;]+)/.exec(login.headers.get('set-cookie'))[1];
  const csrfField = /name="csrf_token" value="([^"]+)"/.exec(loginPage)[1];
  const signedIn = await fetch(`${atrium.url}/realms/bench/login`, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `atrium_csrf=${csrfCookie}` },
    body: new URLSearchParams({ username: 'ada@example.com', password: PASSWORD, csrf_token: csrfField }).toString(),
  });
  const session = /(atrium_realm_bench=[^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1];
  if (signedIn.status !== 303 || !session) throw new Error(`sign-in answered ${signedIn.status}: ${(await signedIn.text()).slice(0, 300)}`);
  const personalUrl = `${atrium.url}/sites/bench/you`;
  const mine = await fetch(personalUrl, { headers: { cookie: session } });
  const mineBody = await mine.text();
  if (mine.status !== 200 || !mineBody.includes('Hi Ada') || mine.headers.get('cache-control') !== 'private, no-store') {
    throw new Error(`the personal page answered ${mine.status} (${mine.headers.get('cache-control')}): ${mineBody.slice(0, 300)}`);
  }
  const anonymous = await (await fetch(personalUrl)).text();
  if (anonymous.includes('Hi Ada')) throw new Error('the personal page was served from a cache');
  await load(personalUrl, { headers: { cookie: session }, connections: 20, duration: 2 });
  const bare20 = await load(`${bare.url}/page`, { connections: 20, duration });
  const cached20 = await load(`${atrium.url}${onePath}`, { connections: 20, duration });
  const personalFigures = await load(personalUrl, { headers: { cookie: session }, connections: 20, duration });
  console.log(`\n20 connections, ${duration} s each, the page ${personal.paths.en} whose layout reads user, the user's session cookie (target p99 < 50 ms):`);
  row('bare Fastify route, a cached page\'s bytes', bare20);
  row('one cached public page', cached20, bare20);
  row('the page that reads user (rendered each time)', personalFigures, bare20);
  verdict('a page that reads user (never cached) at 20 connections, signed in', {
    figure: `p99 ${personalFigures.p99} ms, ${Math.round(personalFigures.rps)} req/s`,
    comparison: `a cached public page: p99 ${cached20.p99} ms, ${Math.round(cached20.rps)} req/s; the bare route: p99 ${bare20.p99} ms, ${Math.round(bare20.rps)} req/s`,
    target: 'p99 < 50 ms', met: personalFigures.p99 < 50 && !personalFigures.non2xx,
  });
  await bare.stop();
  bare = undefined;

  // 4. A publish on instance A seen by instance B on the same database.
  second = await startServer('atrium', env);
  const watched = '/sites/bench/section-7/page-8';
  const { rows: [target] } = await db.query("select id from site_pages where site_id = $1 and locales->'en'->>'slug' = 'page-8'", [site.id]);
  console.log(`\na second instance on the same database; ${ROUNDS} rounds: a new title for ${watched} published on A, B's page asked every 5 ms until it shows:`);
  const delays = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const title = `Renamed ${round}`;
    // B serves (and caches) the page as it is before the publish.
    const before = await (await fetch(`${second.url}${watched}`)).text();
    if (before.includes(`<h1>${title}</h1>`)) throw new Error('the title shows before its publish');
    await admin('PUT', `/sites/bench/layout_pages/${target.id}`, { locales: { en: { title } } });
    const asked = performance.now();
    await admin('POST', '/sites/bench/publish', {});
    const answered = performance.now();
    let seen;
    while (performance.now() - answered < 10_000) {
      const text = await (await fetch(`${second.url}${watched}`)).text();
      if (text.includes(`<h1>${title}</h1>`)) { seen = performance.now(); break; }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const delay = seen === undefined ? Infinity : seen - answered;
    delays.push(delay);
    console.log(`  round ${round}: publish answered on A in ${(answered - asked).toFixed(0)} ms; B showed the new title ${seen === undefined ? 'never (10 s)' : `${delay.toFixed(0)} ms after that answer (${(seen - asked).toFixed(0)} ms after the publish was asked)`}`);
  }
  const worst = Math.max(...delays);
  verdict('a publish on instance A seen by instance B', {
    figure: `at most ${Number.isFinite(worst) ? worst.toFixed(0) : '∞'} ms after A answered (${ROUNDS} rounds, median ${[...delays].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)].toFixed(0)} ms)`,
    comparison: 'B asked every 5 ms; its cache would otherwise keep the page up to 2 s', target: '< 1 s', met: worst < 1000,
  });
} finally {
  await db.end().catch(() => {});
  if (atrium) await atrium.stop();
  if (second) await second.stop();
  if (bare) await bare.stop();
  await scratch.drop();
}
