import { useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { OAuthClientForm } from './oauth-client-form';
import { RowActions } from '../../components/row-actions';
import { SecretOnce } from '../../components/secret-once';

type OAuthClient = AdminComponents['schemas']['OAuthClient'];
const route = getRouteApi('/app/realms/$realmUid/clients');
const LIST = '/customers/{realm_uid}/oauth_clients';

/** The realm's OAuth clients: list, create (its secret shown once), edit, regenerate a confidential client's secret (shown once) and delete. */
export function OAuthClientsPage() {
  const { t } = useI18n();
  const { can } = useSession();
  const { realmUid } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/realms/$realmUid/clients' });
  const queryClient = useQueryClient();
  const path = { realm_uid: realmUid };
  const list = api.useQuery('get', LIST, { params: { path, query: listQuery(search) } });
  const [editing, setEditing] = useState<OAuthClient | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const manage = can('realms.manage', realmUid);
  const close = () => { setEditing(null); setSecret(null); };

  const columns: Column<OAuthClient>[] = [
    { key: 'name', label: t('realms.name'), sortable: true, text: (client) => client.name, render: (client) => client.name },
    { key: 'uid', label: t('realms.clientId'), text: (client) => client.uid, render: (client) => client.uid },
    { key: 'confidential', label: t('realms.confidential'), width: 130, render: (client) => (client.confidential ? t('common.yes') : t('common.no')) },
    ...(manage ? [{ key: 'actions', label: t('common.actions'), width: 190, render: (client: OAuthClient) => (
      <RowActions name={client.name} listPath={LIST} onEdit={() => setEditing(client)}
        onDelete={() => admin.DELETE('/customers/{realm_uid}/oauth_clients/{id}', { params: { path: { ...path, id: client.id } } })} />
    ) }] : []),
  ];

  return (
    <>
      <ListPage
        title={t('realms.oauthClients')}
        columns={columns}
        rowKey={(client) => client.id}
        items={list.data?.oauth_clients}
        meta={list.data?.meta}
        loading={list.isLoading}
        error={list.error}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
        actions={manage && <Button onClick={() => setEditing('new')}>{t('realms.newClient')}</Button>}
      />
      <Modal opened={editing !== null} onClose={close} title={t(editing === 'new' ? 'realms.newClient' : 'realms.editClient')}>
        {secret !== null ? <SecretOnce secret={secret} label={t('realms.secret')} warning={t('realms.secretOnce')} onClose={close} /> : editing !== null && (
          <Stack>
          <OAuthClientForm
            client={editing === 'new' ? undefined : editing}
            onCancel={close}
            onSubmit={async (body) => {
              if (editing === 'new') {
                const { data } = await admin.POST(LIST, { params: { path }, body });
                if (data?.secret) setSecret(data.secret); else close();
              } else {
                await admin.PUT('/customers/{realm_uid}/oauth_clients/{id}', { params: { path: { ...path, id: editing.id } }, body });
                close();
              }
              await queryClient.invalidateQueries({ queryKey: ['get', LIST] });
            }}
          />
          {editing !== 'new' && editing.confidential && (
            <Group justify="flex-start">
              <Button color="red" variant="outline" onClick={() => modals.openConfirmModal({
                title: t('realms.regenerateSecret'), children: t('realms.regenerateConfirm', { name: editing.name }),
                labels: { confirm: t('realms.regenerateSecret'), cancel: t('common.cancel') }, confirmProps: { color: 'red' },
                onConfirm: async () => {
                  const { data } = await admin.POST('/customers/{realm_uid}/oauth_clients/{id}/regenerate_secret', { params: { path: { ...path, id: editing.id } } });
                  setSecret(data!.secret!);
                },
              })}>{t('realms.regenerateSecret')}</Button>
            </Group>
          )}
          </Stack>
        )}
      </Modal>
    </>
  );
}
