import { is, sql, SQL } from 'drizzle-orm';
import { PgColumn, type SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './connect.js';
import { currentDb } from './handle.js';

const statements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A prepared query of a hot path, built once per database handle. PostgreSQL then parses and plans
 * it once per connection instead of on every request, which is most of the cost of a small query.
 * `name` must be unique in the application and always name the same SQL text.
 */
export function prepared<T>(handle: Db, name: string, build: (db: Db, name: string) => T): T {
  const db = currentDb(handle);
  let byName = statements.get(db);
  if (!byName) statements.set(db, byName = new Map());
  let statement = byName.get(name) as T | undefined;
  if (!statement) byName.set(name, statement = build(db, name));
  return statement;
}

const dialect = new PgDialect();

/**
 * `prepared` for hand-written SQL the query builder cannot write (a statement of several data-modifying CTEs), its
 * values `sql.placeholder(name)`s, answering `fields`, a selection as the builder takes it (nested objects included):
 * each value is read as its column reads it. `build` gets the selection's columns in their order, aliased
 * (`fieldList`), to return from a data-modifying CTE and select whole.
 */
export function preparedRows<Fields extends SelectedFields>(handle: Db, name: string, fields: Fields, build: (fieldList: SQL) => SQL) {
  return prepared(handle, name, (d, statementName) => {
    const ordered = inOrder(fields);
    const fieldList = sql.join(ordered.map(({ path, field }) => sql`${field} as ${sql.identifier(path.join('.'))}`), sql`, `);
    return d._.session.prepareQuery(dialect.sqlToQuery(build(fieldList)), ordered, statementName, true) as { execute(values: Record<string, unknown>): Promise<SelectResultFields<Fields>[]> };
  });
}

/** The columns and expressions of a selection, each with its path in the answer's object, in the order the builder reads them. */
function inOrder(fields: object, path: string[] = []): { path: string[]; field: PgColumn | SQL }[] {
  return Object.entries(fields).flatMap(([key, field]) => is(field, PgColumn) || is(field, SQL) ? [{ path: [...path, key], field }] : inOrder(field as object, [...path, key]));
}
