import { createHash } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Context } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { rowsOf } from '../../db/rows.js';
import { enqueue, type TaskQueue } from '../../queue/tasks.js';
import { contentTypes, type ContentFieldDefinition } from '../../tables/content.js';
import { fieldKindOf, fieldValue, type FieldKind } from '../field-values.js';

/**
 * The indexes of filterable fields: one partial index per field of a type over its published versions,
 * on the very expression the delivery API's filters and orders read (field-values.ts), so that a list
 * filtered on the field reads the matching rows instead of every entry of the type. Numbers, dates and
 * booleans get a B-tree on (locale, value), which also answers ranges and orders; texts and references a
 * hash index of the value (equality and `in`), which, unlike a B-tree, takes a text of any length.
 *
 * A change of a type's filterable fields queues a `content-field-indexes` task, which brings the indexes
 * of that type in line with its fields: on PostgreSQL with `CREATE INDEX CONCURRENTLY`, so that writes go
 * on while a large type is indexed. Until its index is there, a filter on the field is still answered,
 * by reading the type's entries. Names carry a digest of the field's name and kind (and of the form of
 * the expression), so that any change builds a new index and drops the old one.
 */

const EXPRESSION_FORM = 1;
const PREFIX = 'content_field_';

interface FieldIndex {
  field: string;
  name: string;
  statistics: string;
  create(typeId: number, concurrently: boolean): string;
  /** The planner's statistics of the field's values: how many entries a filter matches, which chooses between its index and the list's order. */
  createStatistics: string;
}

const dialect = new PgDialect();
/** The text of an expression with its parameters written in: what DDL needs, and what the planner matches a query's bound parameters against. */
const inline = (expression: SQL): string => dialect.sqlToQuery(expression.inlineParams()).sql;

const ORDERED_KINDS = new Set<FieldKind>(['number', 'date', 'boolean']);
const HASHED_KINDS = new Set<FieldKind>(['text', 'reference']);

function indexOf(typeId: number, field: ContentFieldDefinition): FieldIndex | null {
  const kind = fieldKindOf(field);
  if (!field.filterable || (!ORDERED_KINDS.has(kind) && !HASHED_KINDS.has(kind))) return null;
  const digest = createHash('sha256').update(`${EXPRESSION_FORM}:${kind}:${field.name}`).digest('hex').slice(0, 12);
  const name = `${PREFIX}${typeId}_${digest}`;
  const value = inline(fieldValue(field.name, kind).value);
  const columns = ORDERED_KINDS.has(kind) ? `using btree (locale, (${value}))` : `using hash ((${value}))`;
  return {
    field: field.name,
    name,
    statistics: `${PREFIX}stats_${typeId}_${digest}`,
    create: (id, concurrently) => `create index ${concurrently ? 'concurrently ' : ''}if not exists ${name} on content_entry_versions ${columns}
      where type_id = ${id} and state = 'published'`,
    createStatistics: `create statistics if not exists ${PREFIX}stats_${typeId}_${digest} on (${value}) from content_entry_versions`,
  };
}

/** The indexes a type's fields ask for. */
export const fieldIndexesOf = (typeId: number, fields: readonly ContentFieldDefinition[]): FieldIndex[] =>
  fields.map((field) => indexOf(typeId, field)).filter((index): index is FieldIndex => index !== null);

/** A type's field indexes that exist, with whether each is ready (a concurrent build that failed leaves an invalid one). */
async function existingIndexes(db: Db, typeId: number): Promise<{ name: string; valid: boolean }[]> {
  return rowsOf(await db.execute(sql`select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = 'content_entry_versions'::regclass and c.relname like ${`${PREFIX}${typeId}\\_%`}`));
}

async function existingStatistics(db: Db, typeId: number): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(await db.execute(sql`select stxname as name from pg_statistic_ext
    where stxrelid = 'content_entry_versions'::regclass and stxname like ${`${PREFIX}stats\\_${typeId}\\_%`}`));
  return rows.map((r) => r.name);
}

/** Whether each filterable field's index is ready, by field name. */
export async function fieldIndexStates(db: Db, typeId: number, fields: readonly ContentFieldDefinition[]): Promise<{ field: string; ready: boolean }[]> {
  const ready = new Set((await existingIndexes(db, typeId)).filter((i) => i.valid).map((i) => i.name));
  return fieldIndexesOf(typeId, fields).map((index) => ({ field: index.field, ready: ready.has(index.name) }));
}

/**
 * Brings a type's indexes in line with its fields (none once the type is gone). Safe to run twice at once:
 * every statement is `if exists`/`if not exists`, and a clash fails the task, which runs again later.
 */
export async function alignFieldIndexes(ctx: Context, typeId: number): Promise<void> {
  const { db } = ctx;
  const concurrently = ctx.database.kind === 'postgres';
  const [type] = await db.select({ fields: contentTypes.fields }).from(contentTypes).where(eq(contentTypes.id, typeId));
  const fields = type?.fields ?? [];
  const wanted = fieldIndexesOf(typeId, fields);
  const existing = await existingIndexes(db, typeId);
  for (const index of existing) {
    if (index.valid && wanted.some((w) => w.name === index.name)) continue;
    await db.execute(sql.raw(`drop index ${concurrently ? 'concurrently ' : ''}if exists ${index.name}`));
  }
  for (const name of await existingStatistics(db, typeId)) {
    if (!wanted.some((w) => w.statistics === name)) await db.execute(sql.raw(`drop statistics if exists ${name}`));
  }
  const built = new Set(existing.filter((i) => i.valid).map((i) => i.name));
  const missing = wanted.filter((index) => !built.has(index.name));
  for (const index of missing) {
    await db.execute(sql.raw(index.create(typeId, concurrently)));
    await db.execute(sql.raw(index.createStatistics));
  }
  if (missing.length) await db.execute(sql`analyze content_entry_versions`);
  ctx.log.info({ typeId, built: missing.map((i) => i.field), kept: wanted.length - missing.length }, 'content field indexes aligned');
}

export const fieldIndexQueue: TaskQueue<{ typeId: number }> = {
  name: 'content-field-indexes',
  // A million entries take a few seconds; the lease only decides when a dead process's task is taken over.
  leaseMs: 30 * 60_000,
  maxAttempts: 10,
  backoffMs: (attempts) => 5_000 * 2 ** Math.min(attempts, 8),
  run: (ctx, { typeId }) => alignFieldIndexes(ctx, typeId),
};

const signature = (typeId: number, fields: readonly ContentFieldDefinition[]) => fieldIndexesOf(typeId, fields).map((i) => i.name).sort().join();

/** Queues the alignment of a type's indexes, in the transaction of the change, when its filterable fields changed. */
export async function fieldIndexesChanged(ctx: Context, db: Db, typeId: number, before: readonly ContentFieldDefinition[], after: readonly ContentFieldDefinition[]): Promise<void> {
  if (signature(typeId, before) !== signature(typeId, after)) await enqueue(db, ctx.clock, fieldIndexQueue, { typeId });
}
