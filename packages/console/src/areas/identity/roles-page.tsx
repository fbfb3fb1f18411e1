import { Button, Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { roleContextWord } from './role-contexts';
import { useSession } from '../../session/session';
import { RoleForm } from './role-form';

type Role = AdminComponents['schemas']['Role'];
const route = getRouteApi('/app/roles');

export function RolesPage() {
  const { t, formatNumber } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/roles' });
  const list = api.useQuery('get', '/roles', { params: { query: listQuery(search) } });
  const [creating, { open, close }] = useDisclosure(false);

  const columns: Column<Role>[] = [
    { key: 'key', label: t('identity.key'), sortable: true, text: (role) => role.key, render: (role) => <AnchorLink to="/roles/$roleId" params={{ roleId: String(role.id) }}>{role.key}</AnchorLink> },
    { key: 'name', label: t('identity.name'), sortable: true, text: (role) => role.name, render: (role) => role.name },
    { key: 'context', label: t('identity.context'), sortable: true, width: 140, render: (role) => roleContextWord(role.context, t) },
    { key: 'users_count', label: t('identity.assignments'), width: 140, render: (role) => formatNumber(role.users_count) },
  ];

  return (
    <>
      <ListPage
        title={t('identity.roles')}
        columns={columns}
        rowKey={(role) => role.id}
        items={list.data?.roles}
        meta={list.data?.meta}
        loading={list.isLoading}
        error={list.error}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
        actions={can('roles.manage') && <Button onClick={open}>{t('identity.newRole')}</Button>}
      />
      <Modal opened={creating} onClose={close} title={t('identity.newRole')}>
        <RoleForm
          onCancel={close}
          onSubmit={async (values) => {
            const { data } = await admin.POST('/roles', { body: values });
            close();
            await navigate({ to: '/roles/$roleId', params: { roleId: String(data!.id) } });
          }}
        />
      </Modal>
    </>
  );
}
