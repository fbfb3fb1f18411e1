import { Type, type TProperties } from '@sinclair/typebox';
import { PageQuery } from './pagination.js';

export interface ListQueryShape {
  /** What `query` is looked for in, for its description ("the name or uid"); a list without text to search leaves it out. */
  searched?: string;
  /** The keys `sort_by` accepts: the operation's own-property map of columns, or its keys. */
  sortable: Record<string, unknown> | readonly string[];
  /** The key and direction used when `sort_by` is missing or unknown. */
  by: string;
  order: 'asc' | 'desc';
}

/** The text search of a list (see `textSearch` in db/like). */
export const SearchQuery = (searched: string) => ({
  query: Type.Optional(Type.String({
    // No example: the reference page's "Try it out" would fill it in and search for it.
    description: `Text contained in ${searched}, case ignored; % and _ are taken literally`,
  })),
});

/**
 * The query string of a server-paginated, searched and sorted admin list: `page`, `per_page`,
 * `query`, `sort_by` (an unknown key sorts by the default), `order`, then the list's own filters.
 */
export function ListQuery<Extra extends TProperties = {}>(shape: ListQueryShape, extra: Extra = {} as Extra) {
  const keys = (Array.isArray(shape.sortable) ? shape.sortable : Object.keys(shape.sortable)).map((key) => (key === shape.by ? `${key} (default)` : key));
  return Type.Object({
    ...PageQuery,
    ...(shape.searched ? SearchQuery(shape.searched) : {}),
    sort_by: Type.Optional(Type.String({ description: `${keys.join(', ')}; anything else sorts by ${shape.by}` })),
    order: Type.Optional(Type.String({ description: `asc or desc (default ${shape.order})` })),
    ...extra,
  });
}
