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
