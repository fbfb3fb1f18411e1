import { and, desc, eq, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../../admin-auth/principal.js';
import type { Context } from '../../context.js';
import { totalCount, totalOf, type Page } from '../../db/paging.js';
import { textSearch } from '../../db/like.js';
import { orderOf } from '../../db/sorting.js';
import { uniqueViolation } from '../../db/unique.js';
import { FieldErrors, invalidField, notFound } from '../../errors/index.js';
import { checkedName, checkedUid } from '../checks.js';
import { fieldIndexesChanged } from './field-indexes.js';
import { checkChangeWithEntries, checkedFields, labelsShown, removedFields, type FieldDefinition } from './fields.js';
import type { TypeInputBody, TypeModel } from '../schema.js';
import type { Space } from '../spaces.js';
import { contentEntries, contentEntryVersions, contentTypes } from '../../tables/content.js';

export type ContentType = typeof contentTypes.$inferSelect;
export type TypeBody = Static<typeof TypeModel>;

export function typeBody(type: ContentType, space: Space): TypeBody {
  return {
    uid: type.uid,
    name: type.name,
    fields: type.fields.map((f) => ({ name: f.name, labels: labelsShown(f, space.locales), type: f.type, required: f.required, localized: f.localized, sortable: f.sortable, filterable: f.filterable ?? false, options: f.options })),
    created_at: type.createdAt.toISOString(),
    updated_at: type.updatedAt.toISOString(),
  };
}

/** The content type of a space with this uid. */
export async function findType(ctx: Context, spaceId: number, uid: string): Promise<ContentType | undefined> {
  const [type] = await ctx.db.select().from(contentTypes).where(and(eq(contentTypes.spaceId, spaceId), eq(contentTypes.uid, uid)));
  return type;
}

/** The content type an admin route names; 404 when there is none. */
export async function requireType(ctx: Context, space: Space, uid: string): Promise<ContentType> {
  const type = await findType(ctx, space.id, uid);
  if (!type) throw notFound('Content type');
  return type;
}

/** GET one type: the content type of the space with this uid; 404 when there is none. */
export async function showType(ctx: ActingContext, space: Space, uid: string): Promise<TypeBody> {
  ctx.actor.assertHolds('content.read', space.uid);
  return typeBody(await requireType(ctx, space, uid), space);
}

/** The field of a type with this name (an own-property-safe lookup of client text). */
export const fieldOf = (type: ContentType, name: string): FieldDefinition | undefined => type.fields.find((field) => field.name === name);

const uidTaken = (err: unknown) => {
  if (uniqueViolation(err) !== null) throw invalidField('uid', 'has already been taken');
  throw err;
};

const SORTABLE = { uid: contentTypes.uid, name: contentTypes.name, created_at: contentTypes.createdAt, updated_at: contentTypes.updatedAt };

export async function listTypes(ctx: ActingContext, space: Space, page: Page, query: { query?: string; sort_by?: string; order?: string }) {
  ctx.actor.assertHolds('content.read', space.uid);
  const where = and(eq(contentTypes.spaceId, space.id), textSearch(query.query, [contentTypes.uid, contentTypes.name]));
  const rows = await ctx.db.select({ type: contentTypes, total: totalCount }).from(contentTypes).where(where)
    .orderBy(orderOf(SORTABLE, query, contentTypes.updatedAt, 'desc'), desc(contentTypes.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, contentTypes, where);
  return { items: rows.map((r) => typeBody(r.type, space)), total };
}

function checkInput(space: Space, input: TypeInputBody, creating: boolean) {
  const errors = new FieldErrors();
  const uid = checkedUid(errors, input.uid, creating);
  const name = checkedName(errors, input.name, creating);
  const fields = input.fields === undefined ? undefined : checkedFields(errors, input.fields, space.locales);
  errors.throwIfAny();
  return { uid, name, fields };
}

export async function createType(ctx: ActingContext, space: Space, input: TypeInputBody): Promise<TypeBody> {
  ctx.actor.assertHolds('content.manage', space.uid);
  const checked = checkInput(space, input, true);
  const now = ctx.clock.now();
  const [type] = await ctx.db.insert(contentTypes).values({
    spaceId: space.id, uid: checked.uid!, name: checked.name!, fields: checked.fields ?? [], createdAt: now, updatedAt: now,
  }).returning().catch(uidTaken);
  await fieldIndexesChanged(ctx, ctx.db, type.id, [], type.fields);
  return typeBody(type, space);
}

/**
 * PUT is partial; `fields` replaces the whole list, matched to the old one by name. While the type has
 * entries, only the changes `checkChangeWithEntries` allows are taken, and the values of removed fields
 * are dropped from every entry in the same transaction.
 */
export async function updateType(ctx: ActingContext, space: Space, uid: string, input: TypeInputBody): Promise<TypeBody> {
  ctx.actor.assertHolds('content.manage', space.uid);
  const type = await requireType(ctx, space, uid);
  const checked = checkInput(space, input, false);
  const updated = await ctx.db.transaction(async (tx) => {
    // The lock orders this change after (or before) a concurrent one to the same type.
    const [current] = await tx.select().from(contentTypes).where(eq(contentTypes.id, type.id)).for('update');
    if (!current) throw notFound('Content type');
    const removed = checked.fields ? removedFields(current.fields, checked.fields) : [];
    if (checked.fields) {
      const [entry] = await tx.select({ id: contentEntries.id }).from(contentEntries).where(eq(contentEntries.typeId, type.id)).limit(1);
      if (entry) {
        const errors = new FieldErrors();
        checkChangeWithEntries(errors, current.fields, checked.fields);
        errors.throwIfAny();
      }
    }
    const [row] = await tx.update(contentTypes).set({
      uid: checked.uid, name: checked.name, fields: checked.fields, updatedAt: ctx.clock.now(),
    }).where(eq(contentTypes.id, type.id)).returning();
    if (removed.length) {
      const names = sql.join(removed.map((name) => sql`${name}`), sql`, `);
      await tx.update(contentEntryVersions).set({ fields: sql`${contentEntryVersions.fields} - array[${names}]::text[]` })
        .where(eq(contentEntryVersions.typeId, type.id));
    }
    await fieldIndexesChanged(ctx, tx, type.id, current.fields, row.fields);
    return row;
  }).catch(uidTaken);
  // The content API's answers show the type's fields and are found by its uid.
  ctx.caches.changed('content');
  return typeBody(updated, space);
}

/** Deletes the type with its entries (the foreign keys cascade). */
export async function deleteType(ctx: ActingContext, space: Space, uid: string): Promise<void> {
  ctx.actor.assertHolds('content.manage', space.uid);
  const type = await requireType(ctx, space, uid);
  await ctx.db.delete(contentTypes).where(eq(contentTypes.id, type.id));
  await fieldIndexesChanged(ctx, ctx.db, type.id, type.fields, []);
  ctx.caches.changed('content');
}
