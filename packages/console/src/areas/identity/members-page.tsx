import { Button, Group, Modal } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useDisclosure } from '@mantine/hooks';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { InviteForm } from './invite-form';
import { MemberForm } from './member-form';
import { chosenRoles } from './role-assignments';
import { notify } from '../../components/notify';

type Member = AdminComponents['schemas']['TeamMember'];
const route = getRouteApi('/app/members');

export function MembersPage() {
  const { t, formatDate, locale } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/members' });
  const list = api.useQuery('get', '/team_members', { params: { query: listQuery(search) } });
  const [creating, { open, close }] = useDisclosure(false);
  const [inviting, invite] = useDisclosure(false);
  const queryClient = useQueryClient();

  const columns: Column<Member>[] = [
    { key: 'email', label: t('identity.email'), sortable: true, text: (member) => member.email, render: (member) => <AnchorLink to="/members/$memberId" params={{ memberId: String(member.id) }}>{member.email}</AnchorLink> },
    { key: 'name', label: t('identity.name'), sortable: true, text: (member) => member.name, render: (member) => member.name },
    { key: 'roles', label: t('identity.roles'), render: (member) => member.roles.map((role) => role.target ? `${role.key} (${role.target})` : role.key).join(', ') },
    { key: 'active', label: t('identity.active'), width: 110, render: (member) => (member.active ? t('common.yes') : t('common.no')) },
    { key: 'created_at', label: t('identity.created'), sortable: true, width: 200, text: (member) => formatDate(member.created_at), render: (member) => formatDate(member.created_at) },
  ];

  return (
    <>
      <ListPage
        title={t('identity.members')}
        columns={columns}
        rowKey={(member) => member.id}
        items={list.data?.team_members}
        meta={list.data?.meta}
        loading={list.isLoading}
        error={list.error}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
        actions={can('team.manage') && (
          <Group gap="xs">
            <Button onClick={invite.open}>{t('identity.inviteMember')}</Button>
            <Button variant="default" onClick={open}>{t('identity.newMember')}</Button>
          </Group>
        )}
      />
      <Modal opened={creating} onClose={close} title={t('identity.newMember')} size="lg">
        <MemberForm
          onCancel={close}
          onSubmit={async (values) => {
            const { data } = await admin.POST('/team_members', { body: { ...values, roles: chosenRoles(values.roles) } });
            close();
            await navigate({ to: '/members/$memberId', params: { memberId: String(data!.id) } });
          }}
        />
      </Modal>
      <Modal opened={inviting} onClose={invite.close} title={t('identity.inviteMember')} size="lg">
        <InviteForm
          onCancel={invite.close}
          onSubmit={async (values) => {
            const { data } = await admin.POST('/team_members/invitations', { body: { ...values, roles: chosenRoles(values.roles), locale } });
            invite.close();
            notify(t('identity.invitationSent', { email: data!.email }));
            await queryClient.invalidateQueries({ queryKey: ['get', '/team_members'] });
          }}
        />
      </Modal>
    </>
  );
}
