import { useState } from 'react';
import type { AdminComponents } from '@atrium/client';
import { Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { admin, api } from '../../api/client';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import { Pager } from '../../components/pager';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

type Session = AdminComponents['schemas']['ProfileSession'];

const SESSIONS = '/customers/{realm_uid}/users/{id}/sessions';

/** A realm user's active sessions (browsers signed in), each of which can be ended, and "revoke all". */
export function UserSessions({ realmUid, userId, write }: { realmUid: string; userId: number; write: boolean }) {
  const { t, formatDate } = useI18n();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const path = { realm_uid: realmUid, id: userId };
  const sessions = api.useQuery('get', SESSIONS, { params: { path, query: { page: String(page) } } });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', SESSIONS] });
  const columns: Column<Session>[] = [
    { key: 'created_at', label: t('realms.sessionStarted'), width: 200, render: (session) => formatDate(session.created_at) },
    { key: 'last_used_at', label: t('realms.sessionLastUsed'), width: 200, render: (session) => formatDate(session.last_used_at) },
    { key: 'user_agent', label: t('realms.sessionBrowser'), text: (session) => session.user_agent ?? '—', render: (session) => session.user_agent ?? '—' },
    ...(write ? [{
      key: 'actions', label: t('common.actions'), render: (session: Session) => (
        <Button size="xs" variant="default" aria-label={t('realms.endSessionOf', { started: formatDate(session.created_at) })} onClick={async () => {
          await admin.DELETE('/customers/{realm_uid}/users/{id}/sessions/{session_id}', { params: { path: { ...path, session_id: session.id } } });
          notify(t('realms.sessionEnded'));
          await refresh();
        }}>{t('realms.endSession')}</Button>
      ),
    }] : []),
  ];

  return (
    <>
      {sessions.error ? <ErrorView error={sessions.error} /> : null}
      {sessions.data && sessions.data.sessions.length > 0 && (
        <DataTable columns={columns} items={sessions.data.sessions} rowKey={(session) => session.id} />
      )}
      {sessions.data?.sessions.length === 0 && <Text role="status">{t('realms.noSessions')}</Text>}
      <Pager meta={sessions.data?.meta} onPage={setPage} />
      {write && (
        <Group>
          <Button variant="outline" onClick={async () => {
            await admin.DELETE('/customers/{realm_uid}/users/{id}/sessions', { params: { path } });
            notify(t('realms.sessionsRevoked'));
            await refresh();
          }}>{t('realms.revokeSessions')}</Button>
        </Group>
      )}
    </>
  );
}
