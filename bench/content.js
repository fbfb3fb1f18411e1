// Content delivery on PostgreSQL: 100,000 published entries of one type, written straight into the
// scratch database with generate_series; then GET of a filtered, sorted list
// (fields.price[gt], meta.tags[in][], sort_by=meta.published_at) at 50 connections, next to a bare
// Fastify route in the same run. Measured twice: the same list asked over and over (what a site's
// pages do; answered from the two-second content cache after the first), and a different price on
// every request, so that every answer is read from the database (the list query and its count).
import autocannon from 'autocannon';
import pg from 'pg';
import { adminApi, load, row, scratchPostgres, startServer, verdict } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const QUERY = 'fields.price[gt]=50&meta.tags[in][]=sale&meta.tags[in][]=new&sort_by=meta.published_at';

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10' });
const bare = await startServer('bare');
const db = new pg.Client({ connectionString: scratch.url });
try {
  const admin = adminApi(atrium);
  await admin('POST', '/content/spaces', { uid: 'bench', name: 'Bench', default_locale: 'en', locales: ['en', 'es'] });
  await admin('POST', '/content/spaces/bench/types', {
    uid: 'product', name: 'Product',
    fields: [{ name: 'title', type: 'text', localized: true }, { name: 'price', type: 'decimal', sortable: true }, { name: 'stock', type: 'integer' }],
  });

  await db.connect();
  const started = performance.now();
  const { rows: [type] } = await db.query("select t.id, t.space_id from content_types t where t.uid = 'product'");
  await db.query(`insert into content_entries (space_id, type_id, created_at, updated_at)
    select $1, $2, now() - make_interval(mins => g), now() - make_interval(mins => g) from generate_series(1, ${ENTRIES}) g`, [type.space_id, type.id]);
  // Prices 0.0 to 99.9, one of five tags each (two of them asked for), published one minute apart.
  await db.query(`insert into content_entry_versions (entry_id, type_id, locale, state, name, slug, fields, tags, published_at, created_at, updated_at)
    select e.id, e.type_id, 'en', 'published', 'Product ' || e.id, 'product-' || e.id,
      jsonb_build_object('title', 'Product ' || e.id, 'price', (e.id * 7919 % 1000) / 10.0, 'stock', e.id % 50),
      array[(array['red', 'green', 'blue', 'sale', 'new'])[1 + e.id % 5]], e.created_at, e.created_at, e.created_at
    from content_entries e where e.type_id = $1`, [type.id]);
  await db.query('vacuum analyze content_entries');
  await db.query('vacuum analyze content_entry_versions');
  console.log(`${ENTRIES.toLocaleString('en')} published entries written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const list = `${atrium.url}/api/content/spaces/bench/types/product/entries`;
  const first = await fetch(`${list}?${QUERY}`);
  const body = await first.json();
  if (first.status !== 200 || body.entries.length !== 10) throw new Error(`the list answered ${first.status}: ${JSON.stringify(body).slice(0, 300)}`);
  console.log(`${QUERY}: ${body.meta.total_entries.toLocaleString('en')} entries match`);

  await load(`${list}?${QUERY}`, { duration: 2 });
  const bareBefore = await load(bare.url, { duration });
  const cached = await load(`${list}?${QUERY}`, { duration });
  // A price never asked before on each request: no answer can come from the cache.
  let n = 0;
  const uncachedRun = await autocannon({
    url: atrium.url, connections: 50, duration,
    requests: [{ setupRequest: (req) => ({ ...req, path: `/api/content/spaces/bench/types/product/entries?${QUERY.replace('=50', `=${(50 + ++n / 1e7).toFixed(7)}`)}` }) }],
  });
  const uncached = { rps: uncachedRun.requests.average, p50: uncachedRun.latency.p50, p99: uncachedRun.latency.p99, non2xx: uncachedRun.non2xx + uncachedRun.errors };
  const bareAfter = await load(bare.url, { duration });
  const bareFigures = { rps: (bareBefore.rps + bareAfter.rps) / 2, p50: Math.max(bareBefore.p50, bareAfter.p50), p99: Math.max(bareBefore.p99, bareAfter.p99), non2xx: 0 };
  console.log(`\n50 connections, ${duration} s each (target p99 < 25 ms, at least 25% of the bare route):`);
  row('bare Fastify route GET / (mean of two runs)', bareFigures);
  row('the filtered, sorted list, the same query', cached, bareFigures);
  row('the same with a new price each request', uncached, bareFigures);
  for (const [what, figures] of [['content delivery list (cached)', cached], ['content delivery list (a new query each request)', uncached]]) {
    verdict(`${what} at 50 connections`, { figure: `p99 ${figures.p99} ms, ${Math.round(figures.rps)} req/s`, comparison: `${Math.round((figures.rps / bareFigures.rps) * 100)}% of the bare route's ${Math.round(bareFigures.rps)} req/s`, target: 'p99 < 25 ms and ≥ 25% of the bare route', met: figures.p99 < 25 && figures.rps / bareFigures.rps >= 0.25 });
  }
} finally {
  await db.end().catch(() => {});
  await atrium.stop();
  await bare.stop();
  await scratch.drop();
}
