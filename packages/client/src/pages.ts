/** The pagination envelope of every list. */
export interface Meta {
  total_entries: number;
  per_page: number;
  current_page: number;
  total_pages: number;
}

/** The items of a list body `{<root>: Item[], meta}`. */
export type ItemOf<Body> = { [K in keyof Body]: K extends 'meta' ? never : Body[K] extends readonly (infer Item)[] ? Item : never }[keyof Body];

/**
 * Every item of every page of a list, fetched a page at a time as the loop goes:
 * `for await (const user of pages((page) => admin.GET('/customers/{realm_uid}/users', {params: {path, query: {page}}})))`.
 */
export async function* pages<Body extends { meta: Meta }>(
  fetchPage: (page: string) => Promise<{ data?: Body }>,
): AsyncGenerator<ItemOf<Body>> {
  for (let page = 1; ; page++) {
    const { data } = await fetchPage(String(page));
    if (!data) return;
    const root = Object.keys(data).find((key) => key !== 'meta' && Array.isArray((data as Record<string, unknown>)[key]));
    const items = root ? (data as Record<string, unknown>)[root] as ItemOf<Body>[] : [];
    yield* items;
    if (items.length === 0 || page >= data.meta.total_pages) return;
  }
}

/**
 * A listing as it is answered without `X-Api-Naming: legacy`, which this client never sends: the spec's
 * older names (`targets`, `goal`) are the other shape of the listings that have them, and this picks the
 * current one, `{<root>: items, meta}`, for the type checker.
 */
export function currentNaming<Body extends object>(data: Body): Extract<Body, { meta: Meta }>;
export function currentNaming<Body extends object>(data: Body | undefined): Extract<Body, { meta: Meta }> | undefined;
export function currentNaming<Body extends object>(data: Body | undefined): Extract<Body, { meta: Meta }> | undefined {
  if (data !== undefined && !('meta' in data)) throw new Error('a listing answered in the legacy naming');
  return data as Extract<Body, { meta: Meta }> | undefined;
}
