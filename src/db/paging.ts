import { sql } from 'drizzle-orm';
import type { Page } from '../http/pagination.js';

/** Selected beside a page's rows, so that one round trip gives the page and the total. */
export const totalCount = sql<number>`count(*) over()`.mapWith(Number);

/**
 * The total of a list from the rows of its page; only a page past the end (no rows to carry the
 * window count) costs a second query.
 */
export async function totalOf(rows: { total: number }[], page: Page, count: () => Promise<number>): Promise<number> {
  if (rows.length) return rows[0].total;
  return page.offset === 0 ? 0 : count();
}
