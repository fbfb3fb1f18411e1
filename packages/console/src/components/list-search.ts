/** The state of a list in its URL: page, text search, sort. Filters of a screen extend it. */
export interface ListSearch {
  page?: number;
  q?: string;
  sort_by?: string;
  sort_order?: 'asc' | 'desc';
}

export const PER_PAGE = 20;

/** Reads a list's search params from the URL, dropping what is malformed (a stale or hand-edited link). */
export function validateListSearch(raw: Record<string, unknown>): ListSearch {
  const page = Number(raw.page);
  return {
    page: Number.isSafeInteger(page) && page > 1 ? page : undefined,
    q: typeof raw.q === 'string' && raw.q !== '' ? raw.q.slice(0, 200) : undefined,
    sort_by: typeof raw.sort_by === 'string' && /^[a-z_]{1,40}$/.test(raw.sort_by) ? raw.sort_by : undefined,
    sort_order: raw.sort_order === 'asc' || raw.sort_order === 'desc' ? raw.sort_order : undefined,
  };
}

/** A realm-scoped list's state: the realm picked (a uid) beside page, search and sort. */
export interface RealmListSearch extends ListSearch { realm?: string }

export const validateRealmSearch = (raw: Record<string, unknown>): RealmListSearch => ({
  ...validateListSearch(raw),
  realm: typeof raw.realm === 'string' && raw.realm !== '' ? raw.realm.slice(0, 100) : undefined,
});

/** The query string a list route of the admin API takes for that state (`query`, `sort_by`, `order`, as realms and users take them). */
export function listQuery(search: ListSearch): { page: string; per_page: string; query?: string; sort_by?: string; order?: string } {
  return {
    page: String(search.page ?? 1),
    per_page: String(PER_PAGE),
    ...(search.q ? { query: search.q } : {}),
    ...(search.sort_by ? { sort_by: search.sort_by } : {}),
    ...(search.sort_order ? { order: search.sort_order } : {}),
  };
}
