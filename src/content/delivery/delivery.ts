import { strongEtag } from '../../http/etag.js';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../../context.js';
import { notFound } from '../../errors/index.js';
import { metaOf } from '../../http/pagination.js';
import { keptAnswer, validAnswer } from './cache.js';
import { embedReferences } from './include.js';
import { parseEntryQuery, parseListQuery, type DeliveryQuery, type DeliveryType } from './query.js';
import { filtersCondition, orderSql, servedCondition, shapeOf, type Reader } from './sql.js';
import { asParameter, Bindings, preparedShape, type Bind } from '../../db/bindings.js';
import { trimEntry } from './trim.js';
import { deliveredColumns, deliveredColumnsAlone, deliveredView, type DeliveredRow } from './view.js';
import { contentEntries as entries, contentEntryVersions as versions, contentSpaces as spaces, contentTypes as types } from '../../tables/content.js';

/**
 * The public content delivery API's operations: a page of a type's published entries, or one entry,
 * answered as the JSON text sent and its strong ETag. Answers are kept (delivery-cache.ts), keyed by the
 * request's space, type, query and the reader's segments, until a change of published content, types
 * or spaces (`ctx.caches.changed('content')`) or two seconds pass.
 */
export interface Delivered {
  body: string;
  etag: string;
}

type RawQuery = Record<string, unknown>;

/**
 * The space and type a request names, kept as answers are (a change of types or spaces empties them);
 * 404 when there is none, which is not kept, so a type created a moment later is found at once.
 */
export function deliveryType(ctx: Context, spaceUid: string, typeUid: string): Promise<DeliveryType> {
  return keptAnswer(ctx, ['type', spaceUid, typeUid], () => 1000, async () => {
    const [row] = await ctx.db.select({
      spaceId: spaces.id, spaceUid: spaces.uid, defaultLocale: spaces.defaultLocale, locales: spaces.locales,
      typeId: types.id, typeUid: types.uid, fields: types.fields,
    }).from(types).innerJoin(spaces, eq(spaces.id, types.spaceId)).where(and(eq(spaces.uid, spaceUid), eq(types.uid, typeUid)));
    if (!row) throw notFound('Content type');
    return row;
  });
}

const weight = (answer: Delivered) => answer.body.length * 2 + 200;

function delivered(answer: unknown): Delivered {
  const body = JSON.stringify(answer);
  return { body, etag: strongEtag(body) };
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
  return keptAnswer(ctx, keyOf('list', spaceUid, typeUid, raw, reader), weight, async () => delivered(await readList(ctx, spaceUid, typeUid, raw, reader)));
}

async function readList(ctx: Context, spaceUid: string, typeUid: string, raw: RawQuery, reader: Reader): Promise<object> {
  const type = await deliveryType(ctx, spaceUid, typeUid);
  const query = parseListQuery(raw, type);
  const { page } = query;
  const run = listRunner(ctx, type, query, reader);
  // The count is shared by the other pages and orders of the same filters. When none is kept, the page's statement
  // counts too (one round trip); a page past the last one has no row to carry the count, and counts on its own.
  const countKey = ['count', spaceUid, typeUid, filterParams(raw), reader.segments];
  const keptTotal = validAnswer<number>(ctx, countKey);
  const rows: (DeliveredRow & { total?: number })[] = await run(keptTotal === undefined ? 'pageWithTotal' : 'page');
  const total = keptTotal ?? await keptAnswer(ctx, countKey, () => 8, async () => {
    const counted = rows[0]?.total;
    if (counted !== undefined) return counted;
    return page.offset === 0 ? 0 : (await run('count'))[0]!.n;
  });
  const views = await finish(ctx, shaped(rows, type), type, query, reader);
  return { meta: metaOf(total, page), entries: views };
}

/**
 * Runs one of a list's statements (`listStatement`) with the request's values, compiled once per shape of query
 * (`shapeOf`): building a statement's text cost as much as the rest of the request.
 */
function listRunner(ctx: Context, type: DeliveryType, query: DeliveryQuery, reader: Reader) {
  const shape = shapeOf(query, reader);
  return <Variant extends ListVariant>(variant: Variant): Promise<ListRows[Variant]> => {
    const bindings = new Bindings();
    const statement = listStatement(ctx, type, query, reader, variant, bindings.bind);
    return preparedShape(ctx.db, `content_list:${variant}:${shape}`, statement).execute(bindings.values) as Promise<ListRows[Variant]>;
  };
}

/** The rows each of a list's statements answers. */
interface ListRows {
  page: DeliveredRow[];
  pageWithTotal: (DeliveredRow & { total: number })[];
  count: { n: number }[];
}

export type ListVariant = keyof ListRows;

/**
 * One of a list's statements, not yet run: its page; the same page with, on each row, how many versions its condition
 * holds (a scalar subquery, which PostgreSQL evaluates once); or that count alone. The entries are joined only when a
 * filter reads their uuid; otherwise the page reads each shown entry's uuid alone. Values go through `bind`.
 */
export function listStatement(ctx: Context, type: DeliveryType, query: DeliveryQuery, reader: Reader, variant: ListVariant, bind: Bind = asParameter) {
  const now = ctx.clock.now();
  const where = sql`${servedCondition(type.typeId, query, reader, now, bind)} and ${filtersCondition(query.filters, now, bind)}`;
  const byUuid = query.filters.some((f) => 'meta' in f.target && f.target.meta === 'uuid');
  const count = () => {
    const counted = ctx.db.select({ n: sql<number>`count(*)::integer` }).from(versions);
    return (byUuid ? counted.innerJoin(entries, eq(entries.id, versions.entryId)) : counted).where(where);
  };
  if (variant === 'count') return count();
  const extra: Record<string, SQL> = variant === 'pageWithTotal' ? { total: sql<number>`(${count()})`.mapWith(Number) } : {};
  return (byUuid
    ? ctx.db.select({ ...deliveredColumns, ...extra }).from(versions).innerJoin(entries, eq(entries.id, versions.entryId))
    : ctx.db.select({ ...deliveredColumnsAlone, ...extra }).from(versions))
    .where(where).orderBy(orderSql(query.sort, query.descending))
    .limit(bind(query.page.perPage) as number).offset(bind(query.page.offset) as number);
}

/** The parameters that choose which entries a list holds (not which page of them, nor in what order). */
const filterParams = (raw: RawQuery) => Object.keys(raw).filter((k) => !['page', 'per_page', 'sort_by', 'order', 'fields', 'include', 'delivery_token'].includes(k))
  .sort().map((k) => [k, raw[k]]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function showEntry(ctx: Context, spaceUid: string, typeUid: string, uuid: string, raw: RawQuery, reader: Reader): Promise<Delivered> {
  return keptAnswer(ctx, keyOf('one', spaceUid, typeUid, raw, reader, [uuid]), weight, async () => delivered(await readEntry(ctx, spaceUid, typeUid, uuid, raw, reader)));
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
