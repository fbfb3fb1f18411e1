import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { confirmDelete } from '../../components/confirm-delete';
import { ErrorView, NotFound } from '../../components/error-view';
import { isRecordId } from '../../components/record-id';
import { AnchorLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { EventsTable } from './events-table';
import { ImpersonateButton } from './impersonate-button';
import { NotificationForm } from './notification-form';
import { UserForm } from './user-form';
import { UserNotifications } from './user-notifications';
import { UserSessions } from './user-sessions';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/realms/$realmUid/users/$userId');

/** A realm user: edit, delete, impersonate; sessions, recent events and notifications, and a notification to send. */
export function UserPage() {
  const { t } = useI18n();
  const { can } = useSession();
  const { realmUid, userId } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = Number(userId);
  const path = { realm_uid: realmUid, id };
  const valid = isRecordId(userId);
  const user = api.useQuery('get', '/customers/{realm_uid}/users/{id}', { params: { path } }, { enabled: valid });
  const events = api.useQuery('get', '/customers/{realm_uid}/events', { params: { path: { realm_uid: realmUid }, query: { user_id: id, per_page: '10' } } }, { enabled: valid && can('realm.activity.read', realmUid) });

  if (!valid) return <NotFound />;
  if (user.error) return <ErrorView error={user.error} />;
  if (!user.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = user.data;
  const write = can('realm.users.write', realmUid);

  return (
    <Stack>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Title order={2} style={{ minWidth: 0 }}>{current.name || current.email}</Title>
        <Group>
          {can('realm.users.impersonate', realmUid) && <ImpersonateButton realmUid={realmUid} userId={id} name={current.name || current.email} />}
          {write && (
            <Button variant="default" onClick={() => confirmDelete(t, current.email, async () => {
              await admin.DELETE('/customers/{realm_uid}/users/{id}', { params: { path } });
              notify(t('common.deleted'));
              await queryClient.invalidateQueries({ queryKey: ['get', '/customers/{realm_uid}/users'] });
              await navigate({ to: '/realms/$realmUid/users', params: { realmUid } });
            })}>{t('realms.deleteUser')}</Button>
          )}
        </Group>
      </Group>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{current.email} · {current.uuid}</Text>
      {can('realm.originations.read', realmUid) && (
        <AnchorLink to="/submissions" search={{ realm: realmUid, user: id }} style={{ alignSelf: 'flex-start' }}>{t('realms.userSubmissions')} →</AnchorLink>
      )}
      <Paper withBorder p="md" maw={720}>
        <Title order={3} mb="sm">{t('realms.editUser')}</Title>
        {write ? (
          <UserForm key={current.updated_at} realmUid={realmUid} user={current} onSubmit={async (body) => {
            await admin.PUT('/customers/{realm_uid}/users/{id}', { params: { path }, body });
            notify(t('common.saved'));
            await queryClient.invalidateQueries({ queryKey: ['get', '/customers/{realm_uid}/users/{id}'] });
          }} />
        ) : current.custom_fields.map((field) => <Text key={field.key}>{field.key}: {String(field.value ?? '')}</Text>)}
      </Paper>
      <Paper withBorder p="md">
        <Title order={3} mb="sm">{t('realms.sessions')}</Title>
        <Stack gap="sm"><UserSessions realmUid={realmUid} userId={id} write={write} /></Stack>
      </Paper>
      {events.data && (
        <Paper withBorder p="md">
          <Group justify="space-between" mb="sm">
            <Title order={3}>{t('realms.events')}</Title>
            <AnchorLink to="/realms/$realmUid/events" params={{ realmUid }} search={{ user_id: id }}>{t('realms.events')} →</AnchorLink>
          </Group>
          {events.data.events.length ? <EventsTable events={events.data.events} withUser={false} /> : <Text>{t('common.noResults')}</Text>}
        </Paper>
      )}
      {can('realm.activity.read', realmUid) && (
        <Paper withBorder p="md">
          <Title order={3} mb="sm">{t('realms.notifications')}</Title>
          <Stack gap="sm"><UserNotifications realmUid={realmUid} userId={id} /></Stack>
        </Paper>
      )}
      {can('realm.activity.write', realmUid) && (
        <Paper withBorder p="md" maw={720}>
          <Title order={3} mb="sm">{t('realms.sendNotification')}</Title>
          <NotificationForm realmUid={realmUid} userId={id} />
        </Paper>
      )}
    </Stack>
  );
}
