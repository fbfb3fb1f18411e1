import { and, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import { assertMaySeePersonalData } from '../admin-auth/personal-data.js';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Permission } from '../admin-auth/permissions.js';
import type { Context } from '../context.js';
import { textSearch } from '../db/like.js';
import { totalCount, type Page } from '../db/paging.js';
import { orderOf } from '../db/sorting.js';
import { FieldErrors, forbidden, invalidField, notFound } from '../errors/index.js';
import { fieldsOf } from '../realms/custom-fields.js';
import { findRealmByUid, type Realm } from '../realms/realms.js';
import { realmUsersPage } from '../realms/users.js';
import { realms } from '../tables/realms.js';
import { segmentCondition } from './compile.js';
import { namesPersonalData, parseFilters, type FilterNode } from './filters.js';
import { countMatching, withinCountTimeout } from './matching.js';
import type { ApplyFiltersInput, FiltersInput, SegmentInput, SegmentModel } from './schema.js';
import { filtersSummary } from './summary.js';
import { segments } from '../tables/segments.js';

export type Segment = typeof segments.$inferSelect;
export type SegmentBody = Static<typeof SegmentModel>;

/** How long a temporary segment (apply_filters) lives. */
export const TEMPORARY_LIFETIME_MS = 3_600_000;
const MAX_NAME = 255;

export function segmentBody(segment: Segment, realmUid: string): SegmentBody {
  return {
    id: segment.id,
    uuid: segment.uuid,
    name: segment.name,
    realm_uid: realmUid,
    filters: segment.filters as Record<string, unknown>,
    filters_summary: segment.filtersSummary,
    matches_count: segment.matchesCount,
    matches_counted_at: segment.countedAt.toISOString(),
    temporary: segment.temporary,
    expires_at: segment.expiresAt?.toISOString() ?? null,
    created_at: segment.createdAt.toISOString(),
    updated_at: segment.updatedAt.toISOString(),
  };
}

/** A segment that still exists for clients: a temporary one is gone once its hour is over, removed or not. */
export const alive = (now: Date): SQL => or(isNull(segments.expiresAt), gt(segments.expiresAt, now))!;

const SORTABLE = { name: segments.name, created_at: segments.createdAt, updated_at: segments.updatedAt, matches_count: segments.matchesCount };

export interface SegmentListQuery {
  query?: string;
  sort_by?: string;
  order?: string;
  realm_uid?: string;
}

type SegmentList = { items: SegmentBody[]; total: number };

/**
 * The lasting segments of the realms `visible` names (null: every realm), temporary ones left out. A
 * page is kept in the `segments` cache, which every change of a segment or of its count empties.
 */
export async function listSegments(ctx: ActingContext, page: Page, query: SegmentListQuery): Promise<SegmentList> {
  const visible = ctx.actor.targetsOf('segments.read');
  const cache = ctx.caches.of<SegmentList>('segments');
  const now = ctx.clock.now();
  const key = JSON.stringify([page.page, page.perPage, query.query, query.sort_by, query.order, query.realm_uid, visible]);
  return cache.getOrLoad(key, now, () => readSegments(ctx, page, query, visible), () => []);
}

/** Lists and counts are read again after any change of a segment, here and in every other process. */
export const segmentsChanged = (ctx: Context) => ctx.caches.changed('segments');

async function readSegments(ctx: Context, page: Page, query: SegmentListQuery, visible: string[] | null): Promise<SegmentList> {
  const where = and(
    eq(segments.temporary, false),
    textSearch(query.query, [segments.name]),
    query.realm_uid !== undefined ? eq(realms.uid, query.realm_uid) : undefined,
    visible ? inArray(realms.uid, visible.length ? visible : ['']) : undefined,
  );
  const rows = await ctx.db.select({ segment: segments, realmUid: realms.uid, total: totalCount })
    .from(segments).innerJoin(realms, eq(realms.id, segments.realmId)).where(where)
    .orderBy(orderOf(SORTABLE, query, segments.updatedAt, 'desc'), desc(segments.id)).limit(page.perPage).offset(page.offset);
  const total = rows.length || page.offset === 0 ? (rows[0]?.total ?? 0)
    : (await ctx.db.select({ n: sql<number>`count(*)::integer` }).from(segments).innerJoin(realms, eq(realms.id, segments.realmId)).where(where))[0].n;
  return { items: rows.map((r) => segmentBody(r.segment, r.realmUid)), total };
}

/**
 * The segment with this id, for an actor who may `permission` in its realm: one in a realm the actor
 * cannot even read is unknown to it (404); one it can read but not change is forbidden (403).
 */
export async function requireSegment(ctx: ActingContext, id: number, permission: Permission): Promise<{ segment: Segment; realm: Realm }> {
  const [row] = await ctx.db.select({ segment: segments, realm: realms }).from(segments)
    .innerJoin(realms, eq(realms.id, segments.realmId)).where(and(eq(segments.id, id), alive(ctx.clock.now())));
  if (!row || !ctx.actor.holdsOn('segments.read', row.realm.uid)) throw notFound('Segment');
  if (!ctx.actor.holdsOn(permission, row.realm.uid)) throw forbidden();
  return row;
}

/** The realm a body names, once the actor may `permission` there. */
async function realmFor(ctx: ActingContext, uid: string | undefined, permission: Permission): Promise<Realm> {
  const text = uid?.trim();
  if (!text) throw invalidField('realm_uid', "can't be blank");
  if (!ctx.actor.holdsOn(permission, text)) throw forbidden();
  const realm = await findRealmByUid(ctx, text);
  if (!realm) throw invalidField('realm_uid', 'is not a realm of this account');
  return realm;
}

function checkName(name: string | undefined, required: boolean): string | undefined {
  if (name === undefined && !required) return undefined;
  const text = name?.trim();
  if (!text) throw invalidField('name', "can't be blank");
  if (text.length > MAX_NAME) throw invalidField('name', `is too long (maximum is ${MAX_NAME} characters)`);
  return text;
}

/**
 * The filters checked against the realm's custom fields as they are now. Every answer counts what they
 * select, so filters on personal attributes need realm.users.read on the realm.
 */
async function checkedFilters(ctx: ActingContext, realm: Realm, raw: unknown): Promise<FilterNode> {
  if (raw === undefined) throw invalidField('filters', "can't be blank");
  const tree = parseFilters(raw, await fieldsOf(ctx, realm.id));
  if (namesPersonalData(tree)) assertMaySeePersonalData(ctx.actor, realm.uid);
  return tree;
}

/** How many users of the realm the tree selects now. */
export const countOf = (ctx: Context, realm: Pick<Realm, 'id'>, tree: FilterNode, now: Date) => countMatching(ctx, segmentCondition(realm.id, tree, now));

async function insertSegment(ctx: ActingContext, realm: Realm, name: string, raw: unknown, tree: FilterNode, temporary: boolean): Promise<SegmentBody> {
  const now = ctx.clock.now();
  const matches = await countOf(ctx, realm, tree, now);
  const [segment] = await ctx.db.insert(segments).values({
    realmId: realm.id, name, filters: raw, filtersSummary: filtersSummary(tree), matchesCount: matches, countedAt: now,
    temporary, expiresAt: temporary ? new Date(now.getTime() + TEMPORARY_LIFETIME_MS) : null, createdAt: now, updatedAt: now,
  }).returning();
  if (!temporary) segmentsChanged(ctx);
  return segmentBody(segment, realm.uid);
}

export async function createSegment(ctx: ActingContext, input: Static<typeof SegmentInput>): Promise<SegmentBody> {
  const errors = new FieldErrors();
  if (input.name === undefined) errors.add('name', "can't be blank");
  if (input.realm_uid === undefined) errors.add('realm_uid', "can't be blank");
  if (input.filters === undefined) errors.add('filters', "can't be blank");
  errors.throwIfAny();
  const realm = await realmFor(ctx, input.realm_uid, 'segments.manage');
  const name = checkName(input.name, true)!;
  return insertSegment(ctx, realm, name, input.filters, await checkedFilters(ctx, realm, input.filters), false);
}

/** apply_filters: a temporary segment, flagged, left out of lists and gone an hour after its creation. */
export async function applyFilters(ctx: ActingContext, input: Static<typeof ApplyFiltersInput>): Promise<SegmentBody> {
  const realm = await realmFor(ctx, input.realm_uid, 'segments.manage');
  const name = checkName(input.name ?? 'Temporary segment', true)!;
  return insertSegment(ctx, realm, name, input.filters, await checkedFilters(ctx, realm, input.filters), true);
}

/** count_matches: how many users of the realm match now; nothing is kept (see docs/features/segments.md). */
export async function countMatches(ctx: ActingContext, input: Static<typeof FiltersInput>): Promise<{ matches_count: number }> {
  const realm = await realmFor(ctx, input.realm_uid, 'segments.read');
  const tree = await checkedFilters(ctx, realm, input.filters);
  return { matches_count: await countOf(ctx, realm, tree, ctx.clock.now()) };
}

/** How many users preview_matches shows. */
export const PREVIEWED_USERS = 10;

/**
 * preview_matches: the count of count_matches and the first users matching, in the order of the realm's
 * user list, both from one query. Showing users needs realm.users.read on the realm besides segments.read.
 */
export async function previewMatches(ctx: ActingContext, input: Static<typeof FiltersInput>) {
  const realm = await realmFor(ctx, input.realm_uid, 'segments.read');
  assertMaySeePersonalData(ctx.actor, realm.uid);
  const tree = await checkedFilters(ctx, realm, input.filters);
  const condition = segmentCondition(realm.id, tree, ctx.clock.now());
  const first = { page: 1, perPage: PREVIEWED_USERS, offset: 0 };
  const { items, total } = await withinCountTimeout(ctx, (db) => realmUsersPage({ ...ctx, db }, realm, first, {}, condition));
  return { matches_count: total, users: items };
}

/** PUT is partial; new filters are counted at once. The realm of a segment cannot change. */
export async function updateSegment(ctx: ActingContext, id: number, input: Static<typeof SegmentInput>): Promise<SegmentBody> {
  const { segment, realm } = await requireSegment(ctx, id, 'segments.manage');
  if (input.realm_uid !== undefined && input.realm_uid !== realm.uid) throw invalidField('realm_uid', 'cannot be changed');
  const name = checkName(input.name, false);
  const now = ctx.clock.now();
  const changes: Partial<typeof segments.$inferInsert> = { updatedAt: now };
  if (name !== undefined) changes.name = name;
  if (input.filters !== undefined) {
    const tree = await checkedFilters(ctx, realm, input.filters);
    Object.assign(changes, { filters: input.filters, filtersSummary: filtersSummary(tree), matchesCount: await countOf(ctx, realm, tree, now), countedAt: now });
  }
  const [updated] = await ctx.db.update(segments).set(changes).where(eq(segments.id, segment.id)).returning();
  if (!updated) throw notFound('Segment');
  segmentsChanged(ctx);
  return segmentBody(updated, realm.uid);
}

export async function deleteSegment(ctx: ActingContext, id: number): Promise<void> {
  const { segment } = await requireSegment(ctx, id, 'segments.manage');
  await ctx.db.delete(segments).where(eq(segments.id, segment.id));
  segmentsChanged(ctx);
}
