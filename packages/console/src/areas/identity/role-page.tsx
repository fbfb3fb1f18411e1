import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { confirmDelete } from '../../components/confirm-delete';
import { ErrorView } from '../../components/error-view';
import { useI18n } from '../../i18n/i18n';
import { roleContextWord } from './role-contexts';
import { useSession } from '../../session/session';
import { RoleForm } from './role-form';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/roles/$roleId');

/** A role: its permissions, edited and deleted by who may manage roles; the owner role is read-only. */
export function RolePage() {
  const { t } = useI18n();
  const { can } = useSession();
  const { roleId } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const path = { id: Number(roleId) };
  const role = api.useQuery('get', '/roles/{id}', { params: { path } });

  if (role.error) return <ErrorView error={role.error} />;
  if (!role.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = role.data;
  const manage = can('roles.manage') && !current.read_only;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{current.name}</Title>
        {manage && (
          <Button color="red" variant="outline" onClick={() => confirmDelete(t, current.name, async () => {
            await admin.DELETE('/roles/{id}', { params: { path } });
            notify(t('common.deleted'));
            await queryClient.invalidateQueries({ queryKey: ['get', '/roles'] });
            await navigate({ to: '/roles' });
          })}>{t('common.delete')}</Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">{current.key} · {roleContextWord(current.context, t)}{current.read_only ? ` · ${t('identity.readOnly')}` : ''}</Text>
      <Paper withBorder p="md" maw={720}>
        {manage ? (
          <RoleForm
            key={current.updated_at}
            item={current}
            onSubmit={async (values) => {
              await admin.PUT('/roles/{id}', { params: { path }, body: { name: values.name, permissions: values.permissions } });
              notify(t('common.saved'));
              await queryClient.invalidateQueries({ queryKey: ['get', '/roles/{id}'] });
            }}
          />
        ) : <Text style={{ overflowWrap: 'anywhere' }}>{current.permissions.join(', ')}</Text>}
      </Paper>
    </Stack>
  );
}
