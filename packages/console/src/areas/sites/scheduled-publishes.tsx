import { Button, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { admin, api } from '../../api/client';
import { messageOf } from '../../api/errors';
import { DataTable } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

export const SCHEDULED = '/sites/{site_uid}/scheduled_publishes';

/** The publishes waiting for their moment, each cancelled by a member who may publish. */
export function ScheduledPublishes({ siteUid, mayCancel }: { siteUid: string; mayCancel: boolean }) {
  const { t, formatDate } = useI18n();
  const queryClient = useQueryClient();
  const scheduled = api.useQuery('get', SCHEDULED, { params: { path: { site_uid: siteUid } } });
  const items = scheduled.data?.scheduled_publishes ?? [];
  if (items.length === 0) return null;
  const cancel = async (id: number) => {
    try {
      await admin.DELETE(`${SCHEDULED}/{id}`, { params: { path: { site_uid: siteUid, id } } });
      notify(t('sites.scheduleCancelled'));
    } catch (error) {
      notify(messageOf(error, t), 'red');
    }
    await queryClient.invalidateQueries({ queryKey: ['get', SCHEDULED] });
  };
  return (
    <Stack>
      <Title order={3}>{t('sites.scheduled')}</Title>
      {scheduled.error ? <ErrorView error={scheduled.error} /> : (
        <DataTable
          items={items} rowKey={(item) => item.id} striped={false}
          columns={[
            { key: 'at', label: t('sites.publishAt'), render: (item) => formatDate(item.at) },
            { key: 'note', label: t('sites.note'), render: (item) => item.note },
            { key: 'by', label: t('sites.requestedBy'), render: (item) => item.requested_by.name },
            { key: 'actions', label: t('common.actions'), render: (item) => mayCancel && (
              <Button size="xs" variant="default" aria-label={t('sites.cancelScheduleAt', { date: formatDate(item.at) })} onClick={() => void cancel(item.id)}>
                {t('common.cancel')}
              </Button>
            ) },
          ]}
        />
      )}
      <Text size="xs" c="dimmed">{t('sites.scheduledHint')}</Text>
    </Stack>
  );
}
