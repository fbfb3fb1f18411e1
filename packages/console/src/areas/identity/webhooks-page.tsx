import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { CreateWithSecret } from '../../components/create-with-secret';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { webhookBody, WebhookForm } from './webhook-form';

type Webhook = AdminComponents['schemas']['WebhookEndpoint'];
const route = getRouteApi('/app/webhooks');

export function WebhooksPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/webhooks' });
  const queryClient = useQueryClient();
  const list = api.useQuery('get', '/webhooks', { params: { query: listQuery(search) } });
  const [creating, { open, close }] = useDisclosure(false);

  const columns: Column<Webhook>[] = [
    { key: 'url', label: t('identity.webhookUrl'), sortable: true, text: (hook) => hook.url, render: (hook) => <AnchorLink to="/webhooks/$webhookId" params={{ webhookId: String(hook.id) }}>{hook.url}</AnchorLink> },
    { key: 'event_types', label: t('identity.eventTypes'), render: (hook) => hook.event_types.join(', ') },
    { key: 'active', label: t('identity.active'), width: 110, render: (hook) => (hook.active ? t('common.yes') : t('common.no')) },
    { key: 'updated_at', label: t('identity.updated'), sortable: true, width: 200, text: (hook) => formatDate(hook.updated_at), render: (hook) => formatDate(hook.updated_at) },
  ];

  return (
    <>
      <ListPage
        title={t('identity.webhooks')} columns={columns} rowKey={(hook) => hook.id}
        items={list.data?.webhooks} meta={list.data?.meta} loading={list.isLoading} error={list.error}
        search={search} onSearch={(next) => void navigate({ search: next })}
        actions={can('webhooks.manage') && <Button onClick={open}>{t('identity.newWebhook')}</Button>}
      />
      <CreateWithSecret
        opened={creating} close={close} title={t('identity.newWebhook')} secretLabel={t('identity.webhookSecret')} secretWarning={t('identity.webhookSecretOnce')}
        onDone={(id) => void navigate({ to: '/webhooks/$webhookId', params: { webhookId: String(id) } })}
      >
        {(created) => (
          <WebhookForm onCancel={close} onSubmit={async (values) => {
            const { data } = await admin.POST('/webhooks', { body: webhookBody(values) });
            await queryClient.invalidateQueries({ queryKey: ['get', '/webhooks'] });
            created({ id: data!.id, secret: data!.secret! });
          }} />
        )}
      </CreateWithSecret>
    </>
  );
}
