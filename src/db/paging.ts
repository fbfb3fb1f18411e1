import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './connect.js';

/** Which slice of a list is asked for (see `pageOf` in http/pagination). */
export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

/** Selected beside a page's rows, so that one round trip gives the page and the total. */
export const totalCount = sql<number>`count(*) over()`.mapWith(Number);

/**
 * The total of a list from the rows of its page; only a page past the end (no rows to carry the
 * window count) costs a second query, counting `table` where `where` holds.
 */
export async function totalOf(rows: { total: number }[], page: Page, db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  if (rows.length) return rows[0].total;
  if (page.offset === 0) return 0;
  const [{ n }] = await db.select({ n: count() }).from(table).where(where);
  return n;
}

/**
 * The total of a list whose page was read without a window count (which would read every match before
 * the limit): the first page tells it when not full; otherwise one count, which an index can answer alone.
 */
export async function countedTotal(rows: readonly unknown[], page: Page, db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  if (page.offset === 0 && rows.length < page.perPage) return rows.length;
  const [{ n }] = await db.select({ n: count() }).from(table).where(where);
  return n;
}
