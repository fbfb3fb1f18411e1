import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { CreateWithSecret } from '../../components/create-with-secret';
import { useI18n } from '../../i18n/i18n';
import { ApplicationForm, type Application } from './application-form';

const route = getRouteApi('/app/applications');

/** The API access applications (server list in the URL); registering one shows its secret once. */
export function ApplicationsPage() {
  const { t, formatDate } = useI18n();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/applications' });
  const queryClient = useQueryClient();
  const list = api.useQuery('get', '/api_access/applications', { params: { query: listQuery(search) } });
  const [creating, { open, close }] = useDisclosure(false);

  const columns: Column<Application>[] = [
    { key: 'name', label: t('identity.applicationName'), sortable: true, text: (app) => app.name, render: (app) => <AnchorLink to="/applications/$applicationId" params={{ applicationId: String(app.id) }}>{app.name}</AnchorLink> },
    { key: 'uid', label: t('identity.applicationUid'), text: (app) => app.uid, render: (app) => app.uid },
    { key: 'redirect_uri', label: t('identity.redirectUri'), text: (app) => app.redirect_uri, render: (app) => app.redirect_uri },
    { key: 'updated_at', label: t('identity.updated'), sortable: true, width: 200, text: (app) => formatDate(app.updated_at), render: (app) => formatDate(app.updated_at) },
  ];

  return (
    <>
      <ListPage
        title={t('identity.applications')} columns={columns} rowKey={(app) => app.id}
        items={list.data?.applications} meta={list.data?.meta} loading={list.isLoading} error={list.error}
        search={search} onSearch={(next) => void navigate({ search: next })}
        actions={<Button onClick={open}>{t('identity.newApplication')}</Button>}
      />
      <CreateWithSecret
        opened={creating} close={close} title={t('identity.newApplication')} secretLabel={t('identity.applicationSecret')} secretWarning={t('identity.applicationSecretOnce')}
        onDone={(id) => void navigate({ to: '/applications/$applicationId', params: { applicationId: String(id) } })}
      >
        {(created) => (
          <ApplicationForm onCancel={close} onSubmit={async (values) => {
            const { data } = await admin.POST('/api_access/applications', { body: values });
            await queryClient.invalidateQueries({ queryKey: ['get', '/api_access/applications'] });
            created({ id: data!.id, secret: data!.secret! });
          }} />
        )}
      </CreateWithSecret>
    </>
  );
}
