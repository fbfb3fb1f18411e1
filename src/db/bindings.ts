import { is, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './connect.js';
import { currentDb } from './handle.js';

/**
 * How a builder's values enter its SQL: as drizzle parameters (`asParameter`, the default), or as placeholders a
 * `Bindings` names, for a statement compiled once for many requests. Every value a builder reads from its request goes
 * through it; constants of the SQL's form are written into the text.
 */
export type Bind = (value: unknown) => unknown;
export const asParameter: Bind = (value) => value;

/**
 * A request's values, bound to placeholders named in the order the statement's builder asks for them (`v0`, `v1`, ...).
 * The same builder run for two requests of one shape (the same filters, operators and order; other values) asks in the
 * same order, so the statement compiled for the first runs the second with its own `values`.
 */
export class Bindings {
  readonly values: Record<string, unknown> = {};
  private count = 0;
  readonly bind: Bind = (value) => {
    const name = `v${this.count++}`;
    this.values[name] = value;
    return sql.placeholder(name);
  };
}

/** A query the builder made, not yet compiled. */
interface Preparable {
  getSQL(): SQL;
  prepare(name: string): unknown;
}

const dialect = new PgDialect();
const isPlaceholder = (param: unknown) => is(param, Placeholder) || (is(param, Param) && is(param.value, Placeholder));

/** How many shapes a database handle keeps compiled: a client cannot grow the cache by varying its queries. */
const MAX_SHAPES = 500;
const shapes = new WeakMap<Db, Map<string, unknown>>();

/**
 * How many shapes the process names. PostgreSQL keeps a named statement on each connection that ran it, with its plan:
 * after five runs it keeps one generic plan for any values where that costs no more than planning each time, which was
 * most of a small list's time in the database. The cap keeps a client that varies its queries from growing every
 * connection's memory; the shapes past it run unnamed, parsed and planned for their values each time.
 */
const MAX_NAMED = 100;
let named = 0;

/**
 * `prepared` (prepared.ts) for a statement whose text depends on a request's shape and not on its values: compiled once
 * per `shape` from `query` (this request's, its values bound by `Bindings`), the last MAX_SHAPES used kept. A value
 * written into the text instead of bound would be answered to every later request of the shape, so compiling refuses
 * any parameter that is not a placeholder.
 */
export function preparedShape<Query extends Preparable>(handle: Db, shape: string, query: Query): ReturnType<Query['prepare']> {
  const db = currentDb(handle);
  let byShape = shapes.get(db);
  if (!byShape) shapes.set(db, byShape = new Map());
  let statement = byShape.get(shape);
  if (statement) {
    byShape.delete(shape);
  } else {
    if (!dialect.sqlToQuery(query.getSQL()).params.every(isPlaceholder)) throw new Error(`a statement of shape ${shape} holds a value that is not bound`);
    statement = query.prepare(named < MAX_NAMED ? `shape_${named++}` : '');
    if (byShape.size >= MAX_SHAPES) byShape.delete(byShape.keys().next().value!);
  }
  // Kept in the order of use, the least recently used first.
  byShape.set(shape, statement);
  return statement as ReturnType<Query['prepare']>;
}
