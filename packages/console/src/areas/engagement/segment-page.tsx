import { Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { ErrorView, NotFound } from '../../components/error-view';
import { isRecordId } from '../../components/record-id';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { DetailHeader } from '../../components/detail-header';
import { SegmentEditor } from './segment-editor';
import type { SegmentTree } from './segment-query';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/segments/$segmentId');

export function SegmentPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { segmentId } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const valid = isRecordId(segmentId);
  const segment = api.useQuery('get', '/segments/{id}', { params: { path: { id: Number(segmentId) } } }, { enabled: valid });

  if (!valid) return <NotFound />;
  if (segment.error) return <ErrorView error={segment.error} />;
  if (!segment.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = segment.data;
  const manage = can('segments.manage', current.realm_uid);

  return (
    <Stack>
      <DetailHeader title={current.name} canDelete={manage} remove={async () => {
        await admin.DELETE('/segments/{id}', { params: { path: { id: Number(segmentId) } } });
        await queryClient.invalidateQueries({ queryKey: ['get', '/segments'] });
        await navigate({ to: '/segments', search: { realm: current.realm_uid } });
      }} />
      <Text size="sm" c="dimmed">{current.realm_uid} · {t('engagement.updated')} {formatDate(current.updated_at)}</Text>
      <SegmentEditor
        key={current.updated_at}
        realmUid={current.realm_uid}
        initial={{ name: current.name, filters: current.filters as SegmentTree }}
        onSubmit={async (values) => {
          if (!manage) return;
          await admin.PUT('/segments/{id}', { params: { path: { id: Number(segmentId) } }, body: { name: values.name, filters: values.filters as never } });
          notify(t('common.saved'));
          await queryClient.invalidateQueries({ queryKey: ['get', '/segments/{id}'] });
        }}
      />
    </Stack>
  );
}
