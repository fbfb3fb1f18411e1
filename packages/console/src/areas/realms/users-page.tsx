import { Button, Group, Modal, Select } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { ApproveButton } from './approve-button';
import { InviteUserForm } from './invite-user-form';
import { UserForm } from './user-form';
import { USER_STATUS_WORDS, UserStatusBadge } from './user-status';
import { USER_STATUSES, type UserStatus } from './users-search';
import { notify } from '../../components/notify';

type RealmUser = AdminComponents['schemas']['RealmUser'];
const route = getRouteApi('/app/realms/$realmUid/users');

/** The realm's users: server-paginated, sorted, searched and filtered by status (the sign-ups awaiting approval), with create and invite. */
export function UsersPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { realmUid } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/realms/$realmUid/users' });
  const path = { realm_uid: realmUid };
  const list = api.useQuery('get', '/customers/{realm_uid}/users', {
    params: { path, query: { ...listQuery(search), ...(search.status ? { status: search.status } : {}) } },
  });
  const [creating, { open, close }] = useDisclosure(false);
  const [inviting, invite] = useDisclosure(false);
  const write = can('realm.users.write', realmUid);

  const columns: Column<RealmUser>[] = [
    { key: 'email', label: t('realms.email'), sortable: true, text: (user) => user.email, render: (user) => (
      <AnchorLink to="/realms/$realmUid/users/$userId" params={{ realmUid, userId: String(user.id) }}>{user.email}</AnchorLink>
    ) },
    { key: 'last_name', label: t('realms.name'), sortable: true, text: (user) => user.name, render: (user) => user.name },
    { key: 'status', label: t('realms.status'), width: 340, render: (user) => (
      <Group gap="xs" wrap="nowrap">
        <UserStatusBadge user={user} />
        {write && user.moderation_pending && <ApproveButton realmUid={realmUid} user={user} />}
      </Group>
    ) },
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
        actions={write && (
          <Group>
            <Button variant="default" onClick={invite.open}>{t('realms.inviteUser')}</Button>
            <Button onClick={open}>{t('realms.newUser')}</Button>
          </Group>
        )}
        filters={(
          <Select label={t('realms.status')} w={260} clearable placeholder={t('realms.anyStatus')} value={search.status ?? null}
            data={USER_STATUSES.map((status) => ({ value: status, label: t(USER_STATUS_WORDS[status]) }))}
            onChange={(status) => void navigate({ search: { ...search, status: (status as UserStatus | null) ?? undefined, page: undefined } })} />
        )}
      />
      <Modal opened={inviting} onClose={invite.close} title={t('realms.inviteUser')}>
        <InviteUserForm onCancel={invite.close} onSubmit={async (email) => {
          const { data } = await admin.POST('/customers/{realm_uid}/users/invitations', { params: { path }, body: { email } });
          invite.close();
          notify(t('realms.invitationSent', { email: data!.email }));
        }} />
      </Modal>
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
