import { validateListSearch, type ListSearch } from '../../components/list-search';

/** An entry list's URL state: the list's, plus the locale and the version shown. */
export interface EntriesSearch extends ListSearch {
  locale?: string;
  version?: 'draft' | 'published';
}

export function validateEntriesSearch(raw: Record<string, unknown>): EntriesSearch {
  return {
    ...validateListSearch(raw),
    locale: typeof raw.locale === 'string' && /^[A-Za-z0-9-]{2,35}$/.test(raw.locale) ? raw.locale : undefined,
    version: raw.version === 'published' || raw.version === 'draft' ? raw.version : undefined,
  };
}
