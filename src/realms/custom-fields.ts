import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { CustomFieldInput as CustomFieldInputSchema, CustomFieldModel } from './schema.js';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { rowsOf } from '../db/rows.js';
import { uniqueViolation } from '../db/unique.js';
import { FieldErrors, invalidField, notFound } from '../errors/index.js';
import { checkFieldValue, lockFieldValues } from './field-values.js';
import type { Realm } from './realms.js';
import { CUSTOM_FIELD_TYPES } from './schema.js';
import { customFields, realmUsers } from '../tables/realms.js';
import { textSearch } from '../db/like.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { orderOf, type ListParams } from '../db/sorting.js';

export type CustomField = typeof customFields.$inferSelect;

/** Facts page: at most 20 custom fields per realm. */
export const MAX_CUSTOM_FIELDS = 20;

const KEY = /^[a-z][a-z0-9_]{0,49}$/;
const WITH_OPTIONS = new Set(['dropdown', 'choice']);

export type CustomFieldBody = Static<typeof CustomFieldModel>;
export type CustomFieldInput = Static<typeof CustomFieldInputSchema>;

export function customFieldBody(field: CustomField): CustomFieldBody {
  return {
    id: field.id,
    key: field.key,
    name: field.name,
    type: field.type as CustomFieldBody['type'],
    options: field.options,
    required: field.required,
    unique: field.unique,
    visible: field.visible,
    editable: field.editable,
    created_at: field.createdAt.toISOString(),
    updated_at: field.updatedAt.toISOString(),
  };
}


/** A realm's definitions changed, and so may have its users' values (a key renamed, a field removed). */
function fieldsChanged(ctx: Context, realmId: number): void {
  ctx.caches.changed('fields', `realm:${realmId}`);
  ctx.caches.changed('customers', `realm:${realmId}`);
}

/** The realm's custom fields when the `fields` cache holds them (read on every GET /me; dropped on any change of them). */
export const keptFieldsOf = (ctx: Context, realmId: number): CustomField[] | undefined =>
  ctx.caches.of<CustomField[]>('fields').get(String(realmId), ctx.clock.now());

/** Every field of the realm in creation order: the order users' values are shown in. */
export function fieldsOf(ctx: Context, realmId: number): Promise<CustomField[]> {
  return ctx.caches.of<CustomField[]>('fields').getOrLoad(String(realmId), ctx.clock.now(),
    () => fieldsQuery(ctx.db).execute({ realmId }), () => [`realm:${realmId}`]);
}

// Prepared: GET /me reads the fields on every call.
const fieldsQuery = (db: Db) => prepared(db, 'realm_custom_fields', (d, name) => d.select().from(customFields)
  .where(eq(customFields.realmId, sql.placeholder('realmId'))).orderBy(asc(customFields.id)).prepare(name));

export const CUSTOM_FIELD_SORTABLE = {
  id: customFields.id, key: customFields.key, name: customFields.name, type: customFields.type, created_at: customFields.createdAt, updated_at: customFields.updatedAt,
};

export async function listCustomFields(ctx: ActingContext, realm: Realm, page: Page, query: ListParams) {
  ctx.actor.assertHolds('realms.read', realm.uid);
  const where = and(eq(customFields.realmId, realm.id), textSearch(query.query, [customFields.key, customFields.name]));
  const rows = await ctx.db.select({ field: customFields, total: totalCount }).from(customFields).where(where)
    .orderBy(orderOf(CUSTOM_FIELD_SORTABLE, query, customFields.id, 'asc'), asc(customFields.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, customFields, where);
  return { items: rows.map((r) => customFieldBody(r.field)), total };
}

async function findField(db: Db, realm: Realm, id: number): Promise<CustomField> {
  const [field] = await db.select().from(customFields).where(and(eq(customFields.id, id), eq(customFields.realmId, realm.id)));
  if (!field) throw notFound('Custom field');
  return field;
}

interface Definition {
  key: string;
  name: string;
  type: string;
  options: string[];
}

/** The field as it would be after the change, checked; options are kept only for the types that have them. */
function definitionOf(input: CustomFieldInput, before: CustomField | undefined): Definition {
  const errors = new FieldErrors();
  const key = input.key?.trim() ?? before?.key ?? '';
  const name = input.name?.trim() ?? before?.name ?? '';
  const type = input.type?.trim() ?? before?.type ?? '';
  if (!key) errors.add('key', "can't be blank");
  else if (!KEY.test(key)) errors.add('key', 'must start with a lowercase letter and contain only lowercase letters, digits and "_" (at most 50)');
  if (!name) errors.add('name', "can't be blank");
  if (!type) errors.add('type', "can't be blank");
  else if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(type)) errors.add('type', `must be one of: ${CUSTOM_FIELD_TYPES.join(', ')}`);
  let options = (input.options ?? before?.options ?? []).map((o) => o.trim());
  if (WITH_OPTIONS.has(type)) {
    if (!options.length) errors.add('options', `can't be blank for a ${type} field`);
    else if (options.some((o) => !o)) errors.add('options', "can't contain a blank option");
    else if (new Set(options).size !== options.length) errors.add('options', 'must not repeat an option');
  } else if (input.options?.length) {
    errors.add('options', `must be empty for a ${type || 'field of this'} field`);
  } else {
    options = [];
  }
  errors.throwIfAny();
  return { key, name, type, options };
}

const keyTaken = () => invalidField('key', 'has already been taken');

export async function createCustomField(ctx: ActingContext, realm: Realm, input: CustomFieldInput): Promise<CustomFieldBody> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  const definition = definitionOf(input, undefined);
  const now = ctx.clock.now();
  const field = await ctx.db.transaction(async (tx) => {
    // Two creations at once must not both pass the limit.
    await lockFieldValues(tx, realm.id);
    const [{ total }] = await tx.select({ total: count() }).from(customFields).where(eq(customFields.realmId, realm.id));
    if (total >= MAX_CUSTOM_FIELDS) {
      throw invalidField('base', `a realm has at most ${MAX_CUSTOM_FIELDS} custom fields`);
    }
    const [row] = await tx.insert(customFields).values({
      realmId: realm.id, ...definition,
      required: input.required ?? false, unique: input.unique ?? false,
      visible: input.visible ?? true, editable: input.editable ?? false,
      createdAt: now, updatedAt: now,
    }).onConflictDoNothing().returning();
    if (!row) throw keyTaken();
    return row;
  });
  fieldsChanged(ctx, realm.id);
  return customFieldBody(field);
}

/** The users' values of one field, to check them against a changed definition. */
async function storedValues(db: Db, realmId: number, key: string): Promise<unknown[]> {
  const result = await db.execute(sql`select ${realmUsers.customFields} -> ${key} as value from ${realmUsers}
    where ${realmUsers.realmId} = ${realmId} and ${realmUsers.customFields} ? ${key}`);
  return rowsOf<{ value: unknown }>(result).map((r) => r.value);
}

/**
 * PUT is partial. A new key carries the users' values along; a new type or new options must fit the
 * values users already hold, and a field becomes unique only when no two users share a value.
 */
export async function updateCustomField(ctx: ActingContext, realm: Realm, id: number, input: CustomFieldInput): Promise<CustomFieldBody> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  const updated = await ctx.db.transaction(async (tx) => {
    await lockFieldValues(tx, realm.id);
    const before = await findField(tx, realm, id);
    const definition = definitionOf(input, before);
    const errors = new FieldErrors();
    if (definition.type !== before.type || definition.options.join('\n') !== before.options.join('\n')) {
      const misfits = (await storedValues(tx, realm.id, before.key)).filter((v) => !checkFieldValue(definition, v).ok).length;
      if (misfits) errors.add(definition.type !== before.type ? 'type' : 'options', `does not fit the values ${misfits} user(s) hold`);
    }
    if (input.unique && !before.unique) {
      const values = (await storedValues(tx, realm.id, before.key)).map((v) => JSON.stringify(v));
      if (new Set(values).size !== values.length) errors.add('unique', 'cannot be set while several users share a value');
    }
    errors.throwIfAny();
    const [row] = await tx.update(customFields).set({
      ...definition,
      required: input.required, unique: input.unique, visible: input.visible, editable: input.editable,
      updatedAt: ctx.clock.now(),
    }).where(eq(customFields.id, id)).returning();
    if (definition.key !== before.key) {
      await tx.update(realmUsers).set({
        customFields: sql`(${realmUsers.customFields} - ${before.key}) || jsonb_build_object(${definition.key}::text, ${realmUsers.customFields} -> ${before.key})`,
      }).where(and(eq(realmUsers.realmId, realm.id), sql`${realmUsers.customFields} ? ${before.key}`));
    }
    return row;
  }).catch((err) => {
    throw uniqueViolation(err) === null ? err : keyTaken();
  });
  fieldsChanged(ctx, realm.id);
  return customFieldBody(updated);
}

/** Deletes the field and every user's value of it. */
export async function deleteCustomField(ctx: ActingContext, realm: Realm, id: number): Promise<void> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  await ctx.db.transaction(async (tx) => {
    const field = await findField(tx, realm, id);
    await tx.delete(customFields).where(eq(customFields.id, id));
    await tx.update(realmUsers).set({ customFields: sql`${realmUsers.customFields} - ${field.key}` })
      .where(and(eq(realmUsers.realmId, realm.id), sql`${realmUsers.customFields} ? ${field.key}`));
  });
  fieldsChanged(ctx, realm.id);
}
