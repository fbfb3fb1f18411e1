import { Type, type Static, type TArray, type TSchema, type TUnsafe } from '@sinclair/typebox';
import type { Page } from '../db/paging.js';

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;


/** Query parameters every list accepts. Strings, because garbage falls back to the default rather than failing. */
export const PageQuery = {
  page: Type.Optional(Type.String({ description: 'Page number, from 1 (default 1)', examples: ['1'] })),
  per_page: Type.Optional(Type.String({
    description: `Items per page (default ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE}; larger values are cut)`,
    examples: ['10'],
  })),
};

function positive(raw: unknown): number | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const text = String(raw).trim();
  if (!/^\d+$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 && Number.isSafeInteger(value) ? value : null;
}

/** A missing, zero, negative or non-numeric value falls back to the default; per_page is cut to the maximum. */
export function pageOf(query: { page?: unknown; per_page?: unknown }, maxPerPage = MAX_PER_PAGE): Page {
  const page = positive(query.page) ?? 1;
  const perPage = Math.min(positive(query.per_page) ?? DEFAULT_PER_PAGE, maxPerPage);
  return { page, perPage, offset: (page - 1) * perPage };
}

export const Meta = Type.Object({
  total_entries: Type.Integer({ description: 'Total items matching the request' }),
  per_page: Type.Integer({ description: 'Items per page' }),
  current_page: Type.Integer({ description: 'Current page number' }),
  total_pages: Type.Integer({ description: 'Total pages: total_entries / per_page, rounded up' }),
}, { $id: 'Meta', description: 'Pagination envelope of every list' });

export type MetaBody = Static<typeof Meta>;

export function metaOf(total: number, page: Page): MetaBody {
  return {
    total_entries: total,
    per_page: page.perPage,
    current_page: page.page,
    total_pages: Math.ceil(total / page.perPage),
  };
}

/** The list response `{<root>: [...], meta}`. */
export function listOf<Root extends string, Item extends TSchema>(root: Root, item: Item) {
  const properties = { [root]: Type.Array(item), meta: Type.Unsafe<MetaBody>({ $ref: 'Meta#' }) } as Record<Root, TArray<Item>> & { meta: TUnsafe<MetaBody> };
  return Type.Object(properties);
}
