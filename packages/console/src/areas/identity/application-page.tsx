import { Alert, Code, Paper, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { ErrorView, NotFound } from '../../components/error-view';
import { isRecordId } from '../../components/record-id';
import { useI18n } from '../../i18n/i18n';
import { DetailHeader } from '../../components/detail-header';
import { ApplicationForm } from './application-form';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/applications/$applicationId');

/** An API access application: its Application ID and callback, edit, delete (which revokes its tokens). */
export function ApplicationPage() {
  const { t, formatDate } = useI18n();
  const { applicationId } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const valid = isRecordId(applicationId);
  const path = { path: { id: Number(applicationId) } };
  const application = api.useQuery('get', '/api_access/applications/{id}', { params: path }, { enabled: valid });

  if (!valid) return <NotFound />;
  if (application.error) return <ErrorView error={application.error} />;
  if (!application.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = application.data;

  return (
    <Stack>
      <DetailHeader title={current.name} canDelete remove={async () => {
        await admin.DELETE('/api_access/applications/{id}', { params: path });
        await queryClient.invalidateQueries({ queryKey: ['get', '/api_access/applications'] });
        await navigate({ to: '/applications' });
      }} />
      <Table variant="vertical" maw={720}>
        <Table.Tbody>
          <Table.Tr><Table.Th scope="row">{t('identity.applicationUid')}</Table.Th><Table.Td><Code data-application-uid>{current.uid}</Code></Table.Td></Table.Tr>
          <Table.Tr><Table.Th scope="row">{t('identity.callbackUrl')}</Table.Th><Table.Td style={{ overflowWrap: 'anywhere' }}>{current.callback_url}</Table.Td></Table.Tr>
          <Table.Tr><Table.Th scope="row">{t('identity.updated')}</Table.Th><Table.Td>{formatDate(current.updated_at)}</Table.Td></Table.Tr>
        </Table.Tbody>
      </Table>
      <Alert color="yellow">{t('identity.applicationDeleteWarning')}</Alert>
      <Paper withBorder p="md" maw={640}>
        <ApplicationForm key={current.updated_at} item={current} onSubmit={async (values) => {
          await admin.PUT('/api_access/applications/{id}', { params: path, body: values });
          notify(t('common.saved'));
          await queryClient.invalidateQueries({ queryKey: ['get', '/api_access/applications/{id}'] });
        }} />
      </Paper>
    </Stack>
  );
}
