import { useQuery } from '@tanstack/react-query';
import type { AdminComponents } from '@atrium/client';
import { admin } from '../../api/client';
import { statusOf } from '../../api/errors';

type Entry = AdminComponents['schemas']['ContentAdminEntry'];
export const DRAFTS_KEY = 'content-entry-drafts';

/** The drafts of an entry in each locale of the space (null where it has none yet), in one query. */
export function useEntryDrafts(spaceUid: string, typeUid: string, uuid: string, locales: string[] | undefined) {
  return useQuery({
    queryKey: [DRAFTS_KEY, spaceUid, typeUid, uuid, locales],
    enabled: uuid !== 'new' && !!locales,
    queryFn: async () => {
      const path = { space_uid: spaceUid, type_uid: typeUid, uuid };
      const drafts = await Promise.all((locales ?? []).map(async (locale) => {
        try {
          const { data } = await admin.GET('/content/spaces/{space_uid}/types/{type_uid}/entries/{uuid}', { params: { path, query: { locale } } });
          return [locale, data!] as const;
        } catch (error) {
          if (statusOf(error) === 404) return [locale, null, error] as const;
          throw error;
        }
      }));
      // An entry may have no draft in the default locale (written through the API in another): 404 only when it has none at all.
      const missing = drafts.find(([, entry]) => entry === null);
      if (drafts.every(([, entry]) => entry === null) && missing) throw missing[2];
      return Object.fromEntries(drafts.map(([locale, entry]) => [locale, entry])) as Record<string, Entry | null>;
    },
  });
}
