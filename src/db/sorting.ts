import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * The key of `sortable` that `sort_by` names, or the fallback. Looked up as an own property only:
 * `__proto__` or `toString` fall back like any unknown key.
 */
export function sortKeyOf<K extends string>(sortable: Record<K, unknown>, sortBy: string | undefined, fallback: K): K {
  return sortBy !== undefined && Object.hasOwn(sortable, sortBy) ? sortBy as K : fallback;
}

/** What a searched and sorted list reads from its query string (see ListQuery in http/list-query). */
export interface ListParams {
  query?: string;
  sort_by?: string;
  order?: string;
}

/** The ORDER BY term a list's `sort_by` and `order` ask for; `order` may only turn the default direction around. */
export function orderOf(
  sortable: Record<string, AnyColumn | SQL>, query: ListParams, fallback: AnyColumn | SQL, defaultDirection: 'asc' | 'desc',
): SQL {
  const key = sortKeyOf(sortable, query.sort_by, '');
  const column = key ? sortable[key] : fallback;
  const other = defaultDirection === 'asc' ? 'desc' : 'asc';
  return (query.order?.toLowerCase() === other ? other : defaultDirection) === 'asc' ? asc(column) : desc(column);
}
