import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './connect.js';
import { currentDb } from './handle.js';

type Reads<T extends readonly unknown[]> = { [K in keyof T]: () => Promise<T[K]> };

/**
 * Independent reads: at once on the pool (each on a connection of its own), one after another inside a
 * transaction, whose one connection must not be given two queries at a time (pg 8 warns, pg 9 refuses).
 */
export function readAll<T extends readonly unknown[]>(db: Db, reads: Reads<T>): Promise<T>;
export function readAll(db: Db, reads: readonly (() => Promise<unknown>)[]): Promise<unknown[]> {
  const oneAtATime = is(currentDb(db), PgTransaction);
  let previous: Promise<unknown> = Promise.resolve();
  return Promise.all(reads.map((read) => (oneAtATime ? (previous = previous.then(read)) : read())));
}
