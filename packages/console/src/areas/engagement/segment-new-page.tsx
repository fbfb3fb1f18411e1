import { Stack, Text, Title } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin } from '../../api/client';
import { RealmSelect } from '../../components/realm-select';
import { useI18n } from '../../i18n/i18n';
import { SegmentEditor } from './segment-editor';

const route = getRouteApi('/app/segments/new');

export function SegmentNewPage() {
  const { t } = useI18n();
  const { realm } = route.useSearch();
  const navigate = useNavigate({ from: '/segments/new' });
  return (
    <Stack>
      <Title order={1}>{t('engagement.newSegment')}</Title>
      <RealmSelect label={t('engagement.realm')} value={realm ?? null} onChange={(uid) => void navigate({ search: { realm: uid ?? undefined } })} required w={320} />
      {realm ? (
        <SegmentEditor
          key={realm}
          realmUid={realm}
          onSubmit={async (values) => {
            const { data } = await admin.POST('/segments', { body: { realm_uid: realm, name: values.name, filters: values.filters as never } });
            await navigate({ to: '/segments/$segmentId', params: { segmentId: String(data!.id) } });
          }}
        />
      ) : <Text>{t('engagement.chooseRealm')}</Text>}
    </Stack>
  );
}
