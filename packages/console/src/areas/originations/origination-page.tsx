import { Fieldset, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { DetailHeader } from '../../components/detail-header';
import { ErrorView, NotFound } from '../../components/error-view';
import { isRecordId } from '../../components/record-id';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { OriginationForm } from './origination-form';
import { originationBody } from './origination-values';
import { StartSubmission } from './start-submission';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/originations/$realmUid/$originationId');

/** An origination: its steps, tasks and deadline to edit, delete (none without submissions), and a submission to start for a user. */
export function OriginationPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { realmUid, originationId } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const valid = isRecordId(originationId);
  const path = { realm_uid: realmUid, id: Number(originationId) };
  const origination = api.useQuery('get', '/customers/{realm_uid}/originations/{id}', { params: { path } }, { enabled: valid });

  if (!valid) return <NotFound />;
  if (origination.error) return <ErrorView error={origination.error} />;
  if (!origination.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = origination.data;
  const manage = can('realm.originations.manage', realmUid);

  return (
    <Stack>
      <DetailHeader title={current.name} canDelete={manage} remove={async () => {
        await admin.DELETE('/customers/{realm_uid}/originations/{id}', { params: { path } });
        await queryClient.invalidateQueries({ queryKey: ['get', '/customers/{realm_uid}/originations'] });
        await navigate({ to: '/originations', search: { realm: realmUid } });
      }} />
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{realmUid} · {current.uuid} · {t('originations.updated')} {formatDate(current.updated_at)}</Text>
      {can('realm.originations.review', realmUid) && (
        <Paper withBorder p="md" maw={720}>
          <Title order={2} size="h3" mb="sm">{t('originations.startSubmission')}</Title>
          <StartSubmission realmUid={realmUid} originationId={current.id} />
        </Paper>
      )}
      <Paper withBorder p="md">
        <Title order={2} size="h3" mb="sm">{t('originations.structure')}</Title>
        <Fieldset variant="unstyled" disabled={!manage}>
          <OriginationForm key={current.updated_at} item={current} onSubmit={async (values) => {
            await admin.PUT('/customers/{realm_uid}/originations/{id}', { params: { path }, body: originationBody(values) });
            notify(t('common.saved'));
            await queryClient.invalidateQueries({ queryKey: ['get', '/customers/{realm_uid}/originations/{id}'] });
          }} />
        </Fieldset>
      </Paper>
    </Stack>
  );
}
