// Content delivery on PostgreSQL: 100,000 published entries of one type, written straight into the
// scratch database with generate_series; then GET of a filtered, sorted list at 50 connections, next
// to a bare Fastify route in the same run. The price is a filterable field (an index of its own).
// Measured three ways: the same list asked over and over (what a site's pages do; answered from the
// two-second content cache after the first); a new price on every request over a fifth of the entries
// (fields.price[gt] with meta.tags[in][], so that every answer, list and exact count, is read from the
// database); and a new narrow price range on every request (a shop's filter page: a few dozen matches).
// Then 900,000 more entries, and the two new-query runs again: the narrow range shrinks to keep about
// 100 matches, whose cost should grow with the page and the matches, not with the type.
import autocannon from 'autocannon';
import pg from 'pg';
import { adminApi, load, row, scratchPostgres, startServer, verdict } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const MORE = Number(process.env.BENCH_MORE_ENTRIES ?? 900_000);
const QUERY = 'fields.price[gt]=50&meta.tags[in][]=sale&meta.tags[in][]=new&sort_by=meta.published_at';
const LIST = '/api/content/spaces/bench/types/product/entries';

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10' });
const bare = await startServer('bare');
const db = new pg.Client({ connectionString: scratch.url });
const admin = adminApi(atrium);

/** Entries `from`..`to` of the type: prices 0.0000 to 99.9999, one of five tags each (two of them asked for), published one minute apart. */
async function writeEntries(type, from, to) {
  const started = performance.now();
  await db.query(`insert into content_entries (id, space_id, type_id, created_at, updated_at)
    select g, $1, $2, now() - make_interval(mins => g), now() - make_interval(mins => g) from generate_series(${from}, ${to}) g`, [type.space_id, type.id]);
  await db.query(`insert into content_entry_versions (entry_id, type_id, locale, state, name, slug, fields, tags, published_at, created_at, updated_at)
    select e.id, e.type_id, 'en', 'published', 'Product ' || e.id, 'product-' || e.id,
      jsonb_build_object('title', 'Product ' || e.id, 'price', (e.id::bigint * 7919 % 1000000) / 10000.0, 'stock', e.id % 50),
      array[(array['red', 'green', 'blue', 'sale', 'new'])[1 + e.id % 5]], e.created_at, e.created_at, e.created_at
    from content_entries e where e.type_id = $1 and e.id between $2 and $3`, [type.id, from, to]);
  await db.query("select setval(pg_get_serial_sequence('content_entries', 'id'), $1)", [to]);
  await db.query('vacuum analyze content_entries');
  await db.query('vacuum analyze content_entry_versions');
  console.log(`entries ${from.toLocaleString('en')} to ${to.toLocaleString('en')} written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** A run at 50 connections where each request asks what no request asked before. */
async function newQueries(query) {
  let n = 0;
  const run = await autocannon({ url: atrium.url, connections: 50, duration, requests: [{ setupRequest: (req) => ({ ...req, path: `${LIST}?${query(++n)}` }) }] });
  return { rps: run.requests.average, p50: run.latency.p50, p99: run.latency.p99, non2xx: run.non2xx + run.errors };
}

// A price above 50 plus a millionth per request: the same fifth of the entries, never the same query.
const wide = (n) => QUERY.replace('=50', `=${(50 + n / 1e7).toFixed(7)}`);
// A range somewhere between 0 and 99.9, as wide as holds about 100 entries of those written so far (a
// tenth of a unit at 100,000, a hundredth at 1,000,000): the same page and count, a larger type.
let written = ENTRIES;
const narrow = (n) => {
  const from = ((n * 37) % 999) / 10 + n / 1e9;
  return `fields.price[gte]=${from}&fields.price[lt]=${from + 10_000 / written}&sort_by=meta.published_at`;
};

/** Waits until the server answers a cheap request at once again: the answers a run left in flight are done. */
async function settled() {
  for (let started = performance.now(); performance.now() - started < 120_000;) {
    const before = performance.now();
    await fetch(`${atrium.url}/healthz`);
    if (performance.now() - before < 20) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function planOf(query) {
  const plan = await admin('GET', `/content/spaces/bench/types/product/query_plan?${query}`);
  return { plan, text: `page:\n  ${plan.page.join('\n  ')}\ncount:\n  ${plan.count.join('\n  ')}` };
}

try {
  await admin('POST', '/content/spaces', { uid: 'bench', name: 'Bench', default_locale: 'en', locales: ['en', 'es'] });
  await admin('POST', '/content/spaces/bench/types', {
    uid: 'product', name: 'Product',
    fields: [{ name: 'title', type: 'text', localized: true }, { name: 'price', type: 'decimal', sortable: true, filterable: true }, { name: 'stock', type: 'integer' }],
  });
  await db.connect();
  const { rows: [type] } = await db.query("select t.id, t.space_id from content_types t where t.uid = 'product'");
  for (let waited = 0; !(await planOf('')).plan.indexes.every((i) => i.ready); waited += 100) {
    if (waited > 60_000) throw new Error('the price index was not built within a minute');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await writeEntries(type, 1, ENTRIES);

  const first = await fetch(`${atrium.url}${LIST}?${QUERY}`);
  const body = await first.json();
  if (first.status !== 200 || body.entries.length !== 10) throw new Error(`the list answered ${first.status}: ${JSON.stringify(body).slice(0, 300)}`);
  console.log(`${QUERY}: ${body.meta.total_entries.toLocaleString('en')} entries match`);
  console.log(`\nthe plan of a new wide query (${wide(1)}):\n${(await planOf(wide(1))).text}`);
  console.log(`\nthe plan of a new narrow query (${narrow(1)}):\n${(await planOf(narrow(1))).text}\n`);

  await load(`${atrium.url}${LIST}?${QUERY}`, { duration: 2 });
  const bareBefore = await load(bare.url, { duration });
  const cached = await load(`${atrium.url}${LIST}?${QUERY}`, { duration });
  const narrowSmall = await newQueries(narrow);
  const bareAfter = await load(bare.url, { duration });
  // Last: when its time is up, the wide run leaves up to 50 slow answers still being read, which would
  // weigh on whatever came next.
  const wideSmall = await newQueries(wide);
  const bareFigures = { rps: (bareBefore.rps + bareAfter.rps) / 2, p50: Math.max(bareBefore.p50, bareAfter.p50), p99: Math.max(bareBefore.p99, bareAfter.p99), non2xx: 0 };
  console.log(`\n${ENTRIES.toLocaleString('en')} entries, 50 connections, ${duration} s each:`);
  row('bare Fastify route GET / (mean of two runs)', bareFigures);
  row('the filtered, sorted list, the same query', cached, bareFigures);
  row('a new price each request, a fifth matching', wideSmall, bareFigures);
  row('a new narrow price range each request', narrowSmall, bareFigures);

  await settled();
  await writeEntries(type, ENTRIES + 1, ENTRIES + MORE);
  const total = written = ENTRIES + MORE;
  console.log(`\nthe plan of a new narrow query at ${total.toLocaleString('en')} entries:\n${(await planOf(narrow(2))).text}\n`);
  await settled();
  await newQueries(narrow);
  const narrowLarge = await newQueries(narrow);
  const wideLarge = await newQueries(wide);
  console.log(`\n${total.toLocaleString('en')} entries, 50 connections, ${duration} s each:`);
  row('a new price each request, a fifth matching', wideLarge, bareFigures);
  row('a new narrow price range each request', narrowLarge, bareFigures);
  console.log('');

  verdict('content delivery list (cached) at 50 connections', {
    figure: `p99 ${cached.p99} ms, ${Math.round(cached.rps)} req/s`, comparison: `${Math.round((cached.rps / bareFigures.rps) * 100)}% of the bare route's ${Math.round(bareFigures.rps)} req/s`,
    target: 'p99 < 25 ms and ≥ 25% of the bare route', met: cached.p99 < 25 && cached.rps / bareFigures.rps >= 0.25,
  });
  for (const [what, figures] of [['a new narrow price range each request', narrowSmall], ['a new price each request, a fifth of the entries matching', wideSmall]]) {
    verdict(`content delivery list, ${what}, at 50 connections`, {
      figure: `p99 ${figures.p99} ms, ${Math.round(figures.rps)} req/s`, comparison: `${Math.round((figures.rps / bareFigures.rps) * 100)}% of the bare route's ${Math.round(bareFigures.rps)} req/s`,
      target: 'p99 < 50 ms', met: figures.p99 < 50,
    });
  }
  for (const [what, small, large] of [['a new narrow price range', narrowSmall, narrowLarge], ['a new price, a fifth matching', wideSmall, wideLarge]]) {
    const ratio = small.rps / large.rps;
    verdict(`content delivery list, ${what}, at ${total.toLocaleString('en')} entries`, {
      figure: `p99 ${large.p99} ms, ${Math.round(large.rps)} req/s`, comparison: `${ratio.toFixed(2)}× the time per request at ${ENTRIES.toLocaleString('en')} (${Math.round(small.rps)} req/s, p99 ${small.p99} ms)`,
      target: '≤ 2× the time at 100,000', met: ratio <= 2,
    });
  }
} finally {
  await db.end().catch(() => {});
  await atrium.stop();
  await bare.stop();
  await scratch.drop();
}
