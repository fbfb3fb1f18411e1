/** The realm events log's filters in its URL: page, type, user, time range (ISO dates). */
export interface EventsSearch {
  page?: number;
  type?: string;
  user_id?: number;
  from?: string;
  to?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Keeps what is well formed of a hand-edited or stale URL. */
export function validateEventsSearch(raw: Record<string, unknown>): EventsSearch {
  const page = Number(raw.page);
  const user = Number(raw.user_id);
  return {
    page: Number.isSafeInteger(page) && page > 1 ? page : undefined,
    type: typeof raw.type === 'string' && raw.type !== '' ? raw.type.slice(0, 100) : undefined,
    user_id: Number.isSafeInteger(user) && user > 0 ? user : undefined,
    from: typeof raw.from === 'string' && DATE.test(raw.from) ? raw.from : undefined,
    to: typeof raw.to === 'string' && DATE.test(raw.to) ? raw.to : undefined,
  };
}

/** The query of GET /customers/{realm_uid}/events for those filters (`to` includes its whole day). */
export function eventsQuery(search: EventsSearch, perPage: number) {
  return {
    page: String(search.page ?? 1),
    per_page: String(perPage),
    ...(search.type ? { type: search.type } : {}),
    ...(search.user_id ? { user_id: search.user_id } : {}),
    ...(search.from ? { from: `${search.from}T00:00:00Z` } : {}),
    ...(search.to ? { to: `${search.to}T23:59:59Z` } : {}),
  };
}
