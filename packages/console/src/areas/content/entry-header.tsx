import { Button, Group, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin } from '../../api/client';
import { confirmDelete } from '../../components/confirm-delete';
import { ButtonLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { EntrySummary } from './entry-summary';
import { notify } from '../../components/notify';

type Entry = AdminComponents['schemas']['ContentAdminEntry'];

/** The entry's name and where it stands, a link back to the type's entries, and delete. */
export function EntryHeader({ spaceUid, typeUid, entry }: { spaceUid: string; typeUid: string; entry: Entry | null }) {
  const { t } = useI18n();
  const { can } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const entries = { to: '/content/$spaceUid/types/$typeUid/entries', params: { spaceUid, typeUid } } as const;
  return (
    <>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={2} style={{ minWidth: 0 }}>{entry ? entry.meta.name : t('content.newEntry')}</Title>
        <Group wrap="nowrap">
          <ButtonLink {...entries} variant="default">{t('content.entries')}</ButtonLink>
          {entry && can('content.write', spaceUid) && (
            <Button color="red" variant="outline" onClick={() => confirmDelete(t, entry.meta.name, async () => {
              await admin.DELETE('/content/spaces/{space_uid}/types/{type_uid}/entries/{uuid}', {
                params: { path: { space_uid: spaceUid, type_uid: typeUid, uuid: entry.meta.uuid } },
              });
              notify(t('common.deleted'));
              await queryClient.invalidateQueries({ queryKey: ['get', '/content/spaces/{space_uid}/types/{type_uid}/entries'] });
              await navigate(entries);
            })}>{t('content.deleteEntry')}</Button>
          )}
        </Group>
      </Group>
      {entry && <EntrySummary draft={entry} />}
    </>
  );
}
