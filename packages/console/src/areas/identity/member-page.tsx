import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { confirmDelete } from '../../components/confirm-delete';
import { ErrorView } from '../../components/error-view';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { MemberForm } from './member-form';
import { MemberTokens } from './member-tokens';
import { chosenRoles } from './role-assignments';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/members/$memberId');

export function MemberPage() {
  const { t, formatDate } = useI18n();
  const { can, state } = useSession();
  const { memberId } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const path = { id: Number(memberId) };
  const member = api.useQuery('get', '/team_members/{id}', { params: { path } });

  if (member.error) return <ErrorView error={member.error} />;
  if (!member.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = member.data;
  const label = current.name || current.email;
  const isOwner = state.status === 'signed-in' && state.member.roles.some((role) => role.key === 'account_owner');
  const resetTwoFactor = () => modals.openConfirmModal({
    title: t('identity.resetTwoFactor'),
    children: t('identity.resetTwoFactorConfirm'),
    labels: { confirm: t('identity.resetTwoFactor'), cancel: t('common.cancel') },
    confirmProps: { color: 'red' },
    onConfirm: async () => {
      await admin.DELETE('/team_members/{id}/two_factor', { params: { path } });
      notify(t('identity.twoFactorReset'));
    },
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{label}</Title>
        <Group>
        {isOwner && can('team.manage') && <Button variant="default" onClick={resetTwoFactor}>{t('identity.resetTwoFactor')}</Button>}
        {can('team.manage') && (
          <Button color="red" variant="outline" onClick={() => confirmDelete(t, label, async () => {
            await admin.DELETE('/team_members/{id}', { params: { path } });
            notify(t('common.deleted'));
            await queryClient.invalidateQueries({ queryKey: ['get', '/team_members'] });
            await navigate({ to: '/members' });
          })}>{t('common.delete')}</Button>
        )}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">{current.email} · {t('identity.created')} {formatDate(current.created_at)}</Text>
      {can('team.manage') && (
        <Paper withBorder p="md" maw={560}>
          <Title order={2} size="h3" mb="sm">{t('identity.editMember')}</Title>
          <MemberForm
            key={current.updated_at}
            item={current}
            onSubmit={async (values) => {
              await admin.PUT('/team_members/{id}', { params: { path }, body: {
                email: values.email, name: values.name, active: values.active,
                ...(values.password ? { password: values.password } : {}),
                roles: chosenRoles(values.roles),
              } });
              notify(t('common.saved'));
              await queryClient.invalidateQueries({ queryKey: ['get', '/team_members/{id}'] });
            }}
          />
        </Paper>
      )}
      <Paper withBorder p="md" maw={720}>
        <MemberTokens memberId={current.id} manage={can('team.manage')} />
      </Paper>
    </Stack>
  );
}
