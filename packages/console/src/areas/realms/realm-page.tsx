import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { confirmDelete } from '../../components/confirm-delete';
import { ErrorView } from '../../components/error-view';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { RealmForm } from './realm-form';

const route = getRouteApi('/app/realms/$realmUid');

export function RealmPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { realmUid } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const realm = api.useQuery('get', '/realms/{realm_uid}', { params: { path: { realm_uid: realmUid } } });

  if (realm.error) return <ErrorView error={realm.error} />;
  if (!realm.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = realm.data;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{current.name}</Title>
        {can('realms.manage') && (
          <Button color="red" variant="outline" onClick={() => confirmDelete(t, current.name, async () => {
            await admin.DELETE('/realms/{realm_uid}', { params: { path: { realm_uid: realmUid } } });
            notifications.show({ message: t('common.deleted') });
            await queryClient.invalidateQueries({ queryKey: ['get', '/realms'] });
            await navigate({ to: '/realms' });
          })}>{t('common.delete')}</Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">{current.uid} · {t('realms.created')} {formatDate(current.created_at)}</Text>
      <Paper withBorder p="md" maw={560}>
        <Title order={2} size="h3" mb="sm">{t('realms.editRealm')}</Title>
        {can('realms.manage') ? (
          <RealmForm
            key={current.updated_at}
            realm={current}
            onSubmit={async (values) => {
              await admin.PUT('/realms/{realm_uid}', { params: { path: { realm_uid: realmUid } }, body: { name: values.name, active: values.active, custom_domain: values.custom_domain || null } });
              notifications.show({ message: t('common.saved') });
              await queryClient.invalidateQueries({ queryKey: ['get', '/realms/{realm_uid}'] });
            }}
          />
        ) : <Text>{current.name}</Text>}
      </Paper>
    </Stack>
  );
}
