import { createHash } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { notFound } from '../http/errors.js';
import { metaOf } from '../http/pagination.js';
import { embedReferences } from './delivery-include.js';
import { parseEntryQuery, parseListQuery, type DeliveryQuery, type DeliveryType } from './delivery-query.js';
import { filtersCondition, orderSql, servedCondition, type Reader } from './delivery-sql.js';
import { trimEntry } from './delivery-trim.js';
import { deliveredColumns, deliveredView, type DeliveredRow } from './delivery-view.js';
import { contentEntries as entries, contentEntryVersions as versions, contentSpaces as spaces, contentTypes as types } from './tables.js';

/**
 * The public content delivery API's operations: a page of a type's published entries, or one entry,
 * answered as the JSON text sent and its strong ETag. Answers are kept two seconds in the `content`
 * cache (keyed by the request's space, type, query and the reader's segments), which every change of
 * published content, types and spaces empties in every process (`ctx.caches.changed('content')`).
 */
export interface Delivered {
  body: string;
  etag: string;
}

type RawQuery = Record<string, unknown>;

async function deliveryType(ctx: Context, spaceUid: string, typeUid: string): Promise<DeliveryType> {
  const [row] = await ctx.db.select({
    spaceId: spaces.id, spaceUid: spaces.uid, defaultLocale: spaces.defaultLocale, locales: spaces.locales,
    typeId: types.id, typeUid: types.uid, fields: types.fields,
  }).from(types).innerJoin(spaces, eq(spaces.id, types.spaceId)).where(and(eq(spaces.uid, spaceUid), eq(types.uid, typeUid)));
  if (!row) throw notFound('Content type');
  return row;
}

function delivered(answer: unknown): Delivered {
  const body = JSON.stringify(answer);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}

/** How long a kept answer is served as it is; after that (up to the cache's two seconds) it is served while one request reads it again. */
const FRESH_MS = 1_000;
const reading = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * What `make` answers for `key`, kept in the `content` cache. Concurrent requests for the same key share
 * one reading; a kept value older than FRESH_MS is answered while a single reading replaces it, so that
 * under load no request waits for its expiry and the database sees one query per key and second, not one
 * per waiting connection. A change of content drops the kept values, and the next request reads again.
 */
async function cached<T>(ctx: Context, key: unknown[], make: () => Promise<T>): Promise<T> {
  const cache = ctx.caches.of<{ value: T; freshUntil: number }>('content');
  const text = JSON.stringify(key);
  const kept = cache.get(text, ctx.clock.now());
  if (kept && kept.freshUntil > ctx.clock.now().getTime()) return kept.value;
  let pending = reading.get(ctx.caches) ?? new Map<string, Promise<unknown>>();
  reading.set(ctx.caches, pending);
  let next = pending.get(text) as Promise<T> | undefined;
  if (!next) {
    next = make().then((value) => {
      const now = ctx.clock.now();
      cache.set(text, { value, freshUntil: now.getTime() + FRESH_MS }, now);
      return value;
    }).finally(() => pending.delete(text));
    pending.set(text, next);
  }
  if (!kept) return next;
  next.catch((err: unknown) => ctx.log.warn({ err }, 'a content answer could not be read again'));
  return kept.value;
}

/** The key of a request: its query in a fixed order, without the token (the reader's segments stand for it). */
function keyOf(kind: string, spaceUid: string, typeUid: string, raw: RawQuery, reader: Reader, extra: string[] = []): unknown[] {
  const params = Object.keys(raw).filter((k) => k !== 'delivery_token').sort().map((k) => [k, raw[k]]);
  return [kind, spaceUid, typeUid, ...extra, params, [...reader.segments].sort()];
}

const shaped = (rows: DeliveredRow[], type: DeliveryType): object[] => rows.map((row) => deliveredView(row, type.spaceUid, type.typeUid, type.fields));

async function finish(ctx: Context, views: object[], type: DeliveryType, query: DeliveryQuery, reader: Reader): Promise<object[]> {
  const embedded = query.include ? await embedReferences(ctx, views, type, query, reader) : views;
  return query.fieldsPath ? embedded.map((view) => trimEntry(view, query.fieldsPath!)) : embedded;
}

export function listEntries(ctx: Context, spaceUid: string, typeUid: string, raw: RawQuery, reader: Reader): Promise<Delivered> {
  return cached(ctx, keyOf('list', spaceUid, typeUid, raw, reader), async () => delivered(await readList(ctx, spaceUid, typeUid, raw, reader)));
}

async function readList(ctx: Context, spaceUid: string, typeUid: string, raw: RawQuery, reader: Reader): Promise<object> {
  const type = await deliveryType(ctx, spaceUid, typeUid);
  const query = parseListQuery(raw, type);
  const where = sql`${servedCondition(type.typeId, query, reader, ctx.clock.now())} and ${filtersCondition(query.filters, ctx.clock.now())}`;
  const { page } = query;
  const rows = await ctx.db.select(deliveredColumns).from(versions).innerJoin(entries, eq(entries.id, versions.entryId))
    .where(where).orderBy(orderSql(query.sort, query.descending)).limit(page.perPage).offset(page.offset);
  // The page tells the total when it is the first and not full; otherwise one count, which the other pages
  // and orders of the same filters share.
  const total = page.offset === 0 && rows.length < page.perPage ? rows.length
    : await cached(ctx, ['count', spaceUid, typeUid, filterParams(raw), reader.segments], () => countOf(ctx, where, query));
  const views = await finish(ctx, shaped(rows, type), type, query, reader);
  return { meta: metaOf(total, page), entries: views };
}

/** The parameters that choose which entries a list holds (not which page of them, nor in what order). */
const filterParams = (raw: RawQuery) => Object.keys(raw).filter((k) => !['page', 'per_page', 'sort_by', 'order', 'fields', 'include', 'delivery_token'].includes(k))
  .sort().map((k) => [k, raw[k]]);

/** How many versions a list's condition holds; the entries are joined only when a filter reads their uuid. */
async function countOf(ctx: Context, where: SQL, query: DeliveryQuery): Promise<number> {
  const byUuid = query.filters.some((f) => 'meta' in f.target && f.target.meta === 'uuid');
  const counted = ctx.db.select({ n: sql<number>`count(*)::integer` }).from(versions);
  const [{ n }] = await (byUuid ? counted.innerJoin(entries, eq(entries.id, versions.entryId)) : counted).where(where);
  return n;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function showEntry(ctx: Context, spaceUid: string, typeUid: string, uuid: string, raw: RawQuery, reader: Reader): Promise<Delivered> {
  return cached(ctx, keyOf('one', spaceUid, typeUid, raw, reader, [uuid]), async () => delivered(await readEntry(ctx, spaceUid, typeUid, uuid, raw, reader)));
}

async function readEntry(ctx: Context, spaceUid: string, typeUid: string, uuid: string, raw: RawQuery, reader: Reader): Promise<object> {
  const type = await deliveryType(ctx, spaceUid, typeUid);
  const query = parseEntryQuery(raw, type);
  if (!UUID.test(uuid)) throw notFound('Entry');
  const [row] = await ctx.db.select(deliveredColumns).from(versions).innerJoin(entries, eq(entries.id, versions.entryId))
    .where(sql`${entries.uuid} = ${uuid.toLowerCase()}::uuid and ${servedCondition(type.typeId, query, reader, ctx.clock.now())}`).limit(1);
  if (!row) throw notFound('Entry');
  const [view] = await finish(ctx, shaped([row], type), type, query, reader);
  return view;
}
