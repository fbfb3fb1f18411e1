import '@mantine/dates/styles.css';
import 'dayjs/locale/es';
import { useRef, useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { EntryActions } from './entry-actions';
import { EntryEditor, type SaveLocale } from './entry-editor';
import { EntryHeader } from './entry-header';
import { useSpace } from './space-layout';
import { DRAFTS_KEY, useEntryDrafts } from './use-entry-drafts';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/content/$spaceUid/types/$typeUid/entries/$entryUuid');
const ENTRIES = '/content/spaces/{space_uid}/types/{type_uid}/entries';

/** A new entry (`new`) or an entry's drafts in the editor, with its publishing buttons. */
export function EntryPage() {
  const { t, locale: uiLocale } = useI18n();
  const { can } = useSession();
  const { spaceUid, typeUid, entryUuid } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const space = useSpace(spaceUid);
  const type = api.useQuery('get', '/content/spaces/{space_uid}/types/{type_uid}', { params: { path: { space_uid: spaceUid, type_uid: typeUid } } });
  const drafts = useEntryDrafts(spaceUid, typeUid, entryUuid, space.data?.locales);
  const search = route.useSearch();
  const [tab, setTab] = useState<string | null>(search.locale ?? null);
  const isNew = entryUuid === 'new';
  // The uuid of the entry created by a save that failed in a later locale: saving again changes it, never creates another.
  const created = useRef<string | null>(null);

  const failed = space.error ?? type.error ?? drafts.error;
  if (failed) return <ErrorView error={failed} />;
  if (!space.data || !type.data || (!isNew && !drafts.data)) return <Text role="status">{t('common.loading')}</Text>;
  const locales = space.data.locales;
  const first = isNew ? null : drafts.data![locales[0]!] ?? Object.values(drafts.data!).find(Boolean)!;
  const path = { space_uid: spaceUid, type_uid: typeUid };

  const saveLocale: SaveLocale = async (body) => {
    const uuid = isNew ? created.current : entryUuid;
    if (uuid === null) {
      const { data } = await admin.POST(ENTRIES, { params: { path }, body });
      created.current = data!.meta.uuid;
    } else {
      await admin.PUT(`${ENTRIES}/{uuid}`, { params: { path: { ...path, uuid } }, body });
    }
  };
  const refresh = () => Promise.all([
    queryClient.invalidateQueries({ queryKey: ['get', ENTRIES] }),
    queryClient.invalidateQueries({ queryKey: [DRAFTS_KEY, spaceUid, typeUid] }),
  ]);
  const onSaved = async () => {
    notify(t('content.draftSaved'));
    await refresh();
    if (isNew) await navigate({ to: '/content/$spaceUid/types/$typeUid/entries/$entryUuid', params: { spaceUid, typeUid, entryUuid: created.current! }, replace: true });
  };

  return (
    <DatesProvider settings={{ locale: uiLocale }}>
      <Stack>
        <EntryHeader spaceUid={spaceUid} typeUid={typeUid} entry={first} />
        <EntryEditor
          key={isNew ? 'new' : drafts.dataUpdatedAt} fields={type.data.fields} locales={locales} drafts={drafts.data ?? {}}
          context={{ spaceUid, typeUid, writable: can('content.write', spaceUid) }}
          tab={tab && locales.includes(tab) ? tab : locales[0]!} onTab={setTab} saveLocale={saveLocale} onSaved={onSaved}
          actions={first && can('content.publish', spaceUid)
            ? (saveFirst) => <EntryActions path={{ ...path, uuid: first.meta.uuid }} draft={first} saveFirst={saveFirst} onDone={refresh} />
            : undefined}
        />
      </Stack>
    </DatesProvider>
  );
}
