import type { AtriumPermission } from '@atrium/client';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Outlet, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { confirmDelete } from '../../components/confirm-delete';
import { ErrorView } from '../../components/error-view';
import { ButtonLink } from '../../components/links';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/realms/$realmUid');

type Tab = { to: '/realms/$realmUid' | `/realms/$realmUid/${'settings' | 'fields' | 'identity-provider' | 'clients' | 'integrations' | 'users' | 'events' | 'email-templates'}`; label: MessageKey; permission: AtriumPermission };
const TABS: Tab[] = [
  { to: '/realms/$realmUid', label: 'realms.overview', permission: 'realms.read' },
  { to: '/realms/$realmUid/settings', label: 'realms.settings', permission: 'realms.read' },
  { to: '/realms/$realmUid/fields', label: 'realms.customFields', permission: 'realms.read' },
  { to: '/realms/$realmUid/identity-provider', label: 'realms.identityProvider', permission: 'realms.manage' },
  { to: '/realms/$realmUid/clients', label: 'realms.oauthClients', permission: 'realms.read' },
  { to: '/realms/$realmUid/integrations', label: 'realms.integrations', permission: 'realms.manage' },
  { to: '/realms/$realmUid/users', label: 'realms.users', permission: 'realm.users.read' },
  { to: '/realms/$realmUid/events', label: 'realms.events', permission: 'realm.activity.read' },
  { to: '/realms/$realmUid/email-templates', label: 'templates.emailTemplates', permission: 'templates.read' },
];

/** A realm: its name, delete, and tabs that are links to its sections (each a child route with its own URL). */
export function RealmLayout() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { realmUid } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const realm = api.useQuery('get', '/realms/{realm_uid}', { params: { path: { realm_uid: realmUid } } });

  if (realm.error) return <ErrorView error={realm.error} />;
  const current = realm.data;

  // The section below renders at once, so its own calls start with the realm's rather than after it (no waterfall).
  return (
    <Stack>
      {current ? (
        <>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Title order={1} style={{ minWidth: 0 }}>{current.name}</Title>
            {can('realms.manage', realmUid) && (
              <Button color="red" variant="outline" onClick={() => confirmDelete(t, current.name, async () => {
                await admin.DELETE('/realms/{realm_uid}', { params: { path: { realm_uid: realmUid } } });
                notify(t('common.deleted'));
                await queryClient.invalidateQueries({ queryKey: ['get', '/realms'] });
                await navigate({ to: '/realms' });
              })}>{t('common.delete')}</Button>
            )}
          </Group>
          <Text size="sm" c="dimmed">{current.uid} · {t('realms.created')} {formatDate(current.created_at)}</Text>
        </>
      ) : <Text role="status">{t('common.loading')}</Text>}
      <nav aria-label={t('realms.realmSections')}>
        <Group gap="xs">
          {TABS.filter((tab) => can(tab.permission, realmUid)).map((tab) => (
            <ButtonLink key={tab.to} to={tab.to} params={{ realmUid }} size="xs" variant="default"
              activeOptions={{ exact: tab.to === '/realms/$realmUid' }} activeProps={{ variant: 'filled' }}>
              {t(tab.label)}
            </ButtonLink>
          ))}
        </Group>
      </nav>
      <Outlet />
    </Stack>
  );
}
