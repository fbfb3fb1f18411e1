import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { Context } from '../context.js';
import type { ActingContext } from '../admin-auth/principal.js';
import { dropTarget, retarget } from '../admin-auth/role-targets.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { textSearch } from '../db/like.js';
import { orderOf } from '../db/sorting.js';
import { uniqueViolation } from '../db/unique.js';
import { FieldErrors, forbidden, invalidField, notFound } from '../errors/index.js';
import { removeAfterCommit } from '../storage/storage.js';
import { checkedLocales, checkedName, checkedUid } from './checks.js';
import { LIMITS, type SpaceInputBody, type SpaceModel } from './schema.js';
import { fieldIndexesChanged } from './types/field-indexes.js';
import { contentAssets, contentEntries, contentEntryVersions, contentSpaces, contentTypes } from '../tables/content.js';

export type Space = typeof contentSpaces.$inferSelect;
export type SpaceBody = Static<typeof SpaceModel>;

export function spaceBody(space: Space): SpaceBody {
  return {
    uid: space.uid,
    name: space.name,
    default_locale: space.defaultLocale,
    locales: space.locales,
    created_at: space.createdAt.toISOString(),
    updated_at: space.updatedAt.toISOString(),
  };
}

/** The space with this uid. The lookup every content route starts with. */
export async function findSpace(ctx: Context, uid: string): Promise<Space | undefined> {
  const [space] = await ctx.db.select().from(contentSpaces).where(eq(contentSpaces.uid, uid));
  return space;
}

/** The space an admin route names; 404 when there is none. */
export async function requireSpace(ctx: Context, uid: string): Promise<Space> {
  const space = await findSpace(ctx, uid);
  if (!space) throw notFound('Space');
  return space;
}

/** Role assignments name spaces by uid: a team member's space role must name an existing space. */
export const spaceExists = async (ctx: Context, uid: string) => Boolean(await findSpace(ctx, uid));

/** Whether entries of the space may be written in this locale (a tag as stored: `pt-BR`). */
export const offersLocale = (space: Space, locale: string) => space.locales.includes(locale);

interface CheckedSpace {
  uid?: string;
  name?: string;
  defaultLocale?: string;
  locales?: string[];
}

function checkInput(input: SpaceInputBody, current: Space | null): CheckedSpace {
  const errors = new FieldErrors();
  const uid = checkedUid(errors, input.uid, !current);
  const name = checkedName(errors, input.name, !current);
  const locales = checkedLocales(errors, input, current, LIMITS.locales);
  errors.throwIfAny();
  return { uid, name, ...locales };
}

/** A locale may leave a space only once no entry is written in it. */
async function assertLocalesUnused(ctx: Context, space: Space, locales: string[] | undefined): Promise<void> {
  const removed = locales ? space.locales.filter((locale) => !locales.includes(locale)) : [];
  if (!removed.length) return;
  const used = await ctx.db.selectDistinct({ locale: contentEntryVersions.locale }).from(contentEntryVersions)
    .innerJoin(contentEntries, eq(contentEntries.id, contentEntryVersions.entryId))
    .where(and(eq(contentEntries.spaceId, space.id), inArray(contentEntryVersions.locale, removed)));
  if (used.length) throw invalidField('locales', `must keep ${used.map((u) => u.locale).sort().join(', ')}: entries are written in it`);
}

const uidTaken = (err: unknown) => {
  if (uniqueViolation(err) !== null) throw invalidField('uid', 'has already been taken');
  throw err;
};

const SORTABLE = { uid: contentSpaces.uid, name: contentSpaces.name, created_at: contentSpaces.createdAt, updated_at: contentSpaces.updatedAt };

/** `visible`: the space uids the caller may read, or null for all of them. */
export async function listSpaces(ctx: ActingContext, page: Page, query: { query?: string; sort_by?: string; order?: string }) {
  const visible = ctx.actor.targetsOf('content.read');
  const where = and(
    textSearch(query.query, [contentSpaces.uid, contentSpaces.name]),
    visible ? inArray(contentSpaces.uid, visible.length ? visible : ['']) : undefined,
  );
  const rows = await ctx.db.select({ space: contentSpaces, total: totalCount }).from(contentSpaces).where(where)
    .orderBy(orderOf(SORTABLE, query, contentSpaces.updatedAt, 'desc'), desc(contentSpaces.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, contentSpaces, where);
  return { items: rows.map((r) => spaceBody(r.space)), total };
}

/** Creating a space needs content.manage from an account role: a space role reaches only its own space. */
export async function createSpace(ctx: ActingContext, input: SpaceInputBody): Promise<SpaceBody> {
  if (!ctx.actor.holdsEverywhere('content.manage')) throw forbidden('Creating a space needs an account role');
  const checked = checkInput(input, null);
  const now = ctx.clock.now();
  const [space] = await ctx.db.insert(contentSpaces).values({
    uid: checked.uid!, name: checked.name!, defaultLocale: checked.defaultLocale!, locales: checked.locales!, createdAt: now, updatedAt: now,
  }).returning().catch(uidTaken);
  return spaceBody(space);
}

/** PUT is partial. A new uid is followed by the role assignments that named the old one. */
export async function updateSpace(ctx: ActingContext, space: Space, input: SpaceInputBody): Promise<SpaceBody> {
  ctx.actor.assertHolds('content.manage', space.uid);
  const checked = checkInput(input, space);
  await assertLocalesUnused(ctx, space, checked.locales);
  const renamed = checked.uid !== undefined && checked.uid !== space.uid;
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(contentSpaces).set({
      uid: checked.uid, name: checked.name, defaultLocale: checked.defaultLocale, locales: checked.locales, updatedAt: ctx.clock.now(),
    }).where(eq(contentSpaces.id, space.id)).returning();
    if (renamed) await retarget(tx, 'space', space.uid, checked.uid!);
    return row;
  }).catch(uidTaken);
  // Role targets name spaces by uid: a new uid changes who may reach the space.
  if (renamed) ctx.caches.changed('access');
  ctx.caches.changed('content');
  return spaceBody(updated);
}

/**
 * Deletes the space with its types, entries and assets (the foreign keys cascade), the assets' files
 * once committed, and the role assignments that named it, so that a later space of the same uid
 * inherits none of them.
 */
export async function deleteSpace(ctx: ActingContext, space: Space): Promise<void> {
  ctx.actor.assertHolds('content.manage', space.uid);
  const files = await ctx.db.transaction(async (tx) => {
    await tx.select({ id: contentSpaces.id }).from(contentSpaces).where(eq(contentSpaces.id, space.id)).for('update');
    const assets = await tx.delete(contentAssets).where(eq(contentAssets.spaceId, space.id)).returning({ key: contentAssets.storageKey });
    await dropTarget(tx, 'space', space.uid);
    const types = await tx.delete(contentTypes).where(eq(contentTypes.spaceId, space.id)).returning({ id: contentTypes.id, fields: contentTypes.fields });
    for (const type of types) await fieldIndexesChanged(ctx, tx, type.id, type.fields, []);
    await tx.delete(contentSpaces).where(eq(contentSpaces.id, space.id));
    return assets.map((asset) => asset.key);
  });
  ctx.caches.changed('access');
  ctx.caches.changed('content');
  await removeAfterCommit(ctx.storage, ctx.log, files);
}
