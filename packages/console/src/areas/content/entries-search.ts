import { validateListSearch, type ListSearch } from '../../components/list-search';

/** An entry list's URL state: the list's, plus the locale and the version shown. */
export interface EntriesSearch extends ListSearch {
  locale?: string;
  version?: 'draft' | 'published';
}

const localeOf = (raw: unknown) => (typeof raw === 'string' && /^[A-Za-z0-9-]{2,35}$/.test(raw) ? raw : undefined);

export function validateEntriesSearch(raw: Record<string, unknown>): EntriesSearch {
  return {
    ...validateListSearch(raw),
    locale: localeOf(raw.locale),
    version: raw.version === 'published' || raw.version === 'draft' ? raw.version : undefined,
  };
}

/** The entry editor's URL state: the locale tab open. */
export const validateEntrySearch = (raw: Record<string, unknown>): { locale?: string } => ({ locale: localeOf(raw.locale) });
