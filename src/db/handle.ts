import type { Db } from './connect.js';
import { requestTransaction } from './request-transaction.js';

const CURRENT = Symbol('current database');

/**
 * The database handle every context carries: the pool, or the request's open transaction while code
 * runs on that request's behalf (db/request-transaction.ts). The handle looks the transaction up itself
 * on every use, so a copy of a context (`{ ...ctx, log }`) cannot lose it, nor keep one that has ended.
 * Methods are not bound: drizzle's own `this.session` goes through the handle too.
 */
export function requestScopedDb(pool: Db): Db {
  return new Proxy(pool, {
    get(target, key) {
      const db = requestTransaction() ?? target;
      return key === CURRENT ? db : Reflect.get(db, key);
    },
  });
}

/** The pool or transaction a handle stands for right now (for what is kept per connection, like prepared statements). */
export function currentDb(db: Db): Db {
  return (Reflect.get(db, CURRENT) as Db | undefined) ?? db;
}
