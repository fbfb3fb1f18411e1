import { Badge, Button, Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { ACTIVE_GREEN } from '../../app/theme';
import { UserForm } from './user-form';

type RealmUser = AdminComponents['schemas']['RealmUser'];
const route = getRouteApi('/app/realms/$realmUid/users');

/** The realm's users: server-paginated, sorted and searched, with create. */
export function UsersPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { realmUid } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/realms/$realmUid/users' });
  const path = { realm_uid: realmUid };
  const list = api.useQuery('get', '/customers/{realm_uid}/users', { params: { path, query: listQuery(search) } });
  const [creating, { open, close }] = useDisclosure(false);

  const columns: Column<RealmUser>[] = [
    { key: 'email', label: t('realms.email'), sortable: true, text: (user) => user.email, render: (user) => (
      <AnchorLink to="/realms/$realmUid/users/$userId" params={{ realmUid, userId: String(user.id) }}>{user.email}</AnchorLink>
    ) },
    { key: 'last_name', label: t('realms.name'), sortable: true, text: (user) => user.name, render: (user) => user.name },
    { key: 'active', label: t('realms.active'), width: 110, render: (user) => <Badge color={user.active ? ACTIVE_GREEN : 'gray.7'}>{user.active ? t('common.yes') : t('common.no')}</Badge> },
    { key: 'created_at', label: t('realms.created'), sortable: true, width: 200, text: (user) => formatDate(user.created_at), render: (user) => formatDate(user.created_at) },
  ];

  return (
    <>
      <ListPage
        title={t('realms.users')}
        columns={columns}
        rowKey={(user) => user.id}
        items={list.data?.users}
        meta={list.data?.meta}
        loading={list.isLoading}
        error={list.error}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
        actions={can('realm.users.write', realmUid) && <Button onClick={open}>{t('realms.newUser')}</Button>}
      />
      <Modal opened={creating} onClose={close} title={t('realms.newUser')} size="lg">
        <UserForm realmUid={realmUid} onCancel={close} onSubmit={async (body) => {
          const { data } = await admin.POST('/customers/{realm_uid}/users', { params: { path }, body });
          close();
          await navigate({ to: '/realms/$realmUid/users/$userId', params: { realmUid, userId: String(data!.id) } });
        }} />
      </Modal>
    </>
  );
}
