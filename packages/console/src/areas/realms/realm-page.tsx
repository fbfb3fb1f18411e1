import { Paper, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { RealmForm } from './realm-form';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/realms/$realmUid');

/** The realm's overview tab: its name, state and domain, edited in place. */
export function RealmPage() {
  const { t } = useI18n();
  const { can } = useSession();
  const { realmUid } = route.useParams();
  const queryClient = useQueryClient();
  const realm = api.useQuery('get', '/realms/{realm_uid}', { params: { path: { realm_uid: realmUid } } });
  if (!realm.data) return null;
  const current = realm.data;

  return (
    <Paper withBorder p="md" maw={560}>
      <Title order={2} size="h3" mb="sm">{t('realms.editRealm')}</Title>
      {can('realms.manage', realmUid) ? (
        <RealmForm
          key={current.updated_at}
          realm={current}
          onSubmit={async (values) => {
            await admin.PUT('/realms/{realm_uid}', { params: { path: { realm_uid: realmUid } }, body: { name: values.name, active: values.active, custom_domain: values.custom_domain || null } });
            notify(t('common.saved'));
            await queryClient.invalidateQueries({ queryKey: ['get', '/realms/{realm_uid}'] });
          }}
        />
      ) : <Text>{current.name}</Text>}
    </Paper>
  );
}
