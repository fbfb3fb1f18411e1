import { useState } from 'react';
import { Button, Group, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { admin, api } from '../../api/client';
import { Pager } from '../../components/pager';
import { useI18n } from '../../i18n/i18n';

const SESSIONS = '/customers/{realm_uid}/users/{id}/sessions';

/** A realm user's active sessions (browsers signed in), each of which can be ended, and "revoke all". */
export function UserSessions({ realmUid, userId, write }: { realmUid: string; userId: number; write: boolean }) {
  const { t, formatDate } = useI18n();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const path = { realm_uid: realmUid, id: userId };
  const sessions = api.useQuery('get', SESSIONS, { params: { path, query: { page: String(page) } } });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', SESSIONS] });

  return (
    <>
      {sessions.data && sessions.data.sessions.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('realms.sessionStarted')}</Table.Th>
                <Table.Th scope="col">{t('realms.sessionLastUsed')}</Table.Th>
                <Table.Th scope="col">{t('realms.sessionBrowser')}</Table.Th>
                {write && <Table.Th scope="col">{t('common.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.data.sessions.map((session) => (
                <Table.Tr key={session.id}>
                  <Table.Td>{formatDate(session.created_at)}</Table.Td>
                  <Table.Td>{formatDate(session.last_used_at)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{session.user_agent ?? '—'}</Table.Td>
                  {write && (
                    <Table.Td>
                      <Button size="xs" variant="default" aria-label={t('realms.endSessionOf', { started: formatDate(session.created_at) })} onClick={async () => {
                        await admin.DELETE('/customers/{realm_uid}/users/{id}/sessions/{session_id}', { params: { path: { ...path, session_id: session.id } } });
                        notifications.show({ message: t('realms.sessionEnded') });
                        await refresh();
                      }}>{t('realms.endSession')}</Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {sessions.data?.sessions.length === 0 && <Text role="status">{t('realms.noSessions')}</Text>}
      <Pager meta={sessions.data?.meta} onPage={setPage} />
      {write && (
        <Group>
          <Button variant="outline" onClick={async () => {
            await admin.DELETE('/customers/{realm_uid}/users/{id}/sessions', { params: { path } });
            notifications.show({ message: t('realms.sessionsRevoked') });
            await refresh();
          }}>{t('realms.revokeSessions')}</Button>
        </Group>
      )}
    </>
  );
}
