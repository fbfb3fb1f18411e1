import type { SQL } from 'drizzle-orm';
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

/** A prepared statement of hand-written SQL; `execute(values)` answers the driver's result (read it with `rowsOf`). */
export interface PreparedSql {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

/**
 * `prepared` for SQL the query builder cannot write (a statement of several data-modifying CTEs), its values
 * `sql.placeholder(name)`s: parsed and planned once per connection, like the builder's prepared queries.
 */
export function preparedSql(handle: Db, name: string, build: () => SQL): PreparedSql {
  return prepared(handle, name, (d, statementName) =>
    d._.session.prepareQuery(dialect.sqlToQuery(build()), undefined, statementName, false) as PreparedSql);
}
