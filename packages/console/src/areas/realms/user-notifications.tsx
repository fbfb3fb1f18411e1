import { useState } from 'react';
import type { AdminComponents } from '@atrium/client';
import { Badge, Text } from '@mantine/core';
import { api } from '../../api/client';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import { Pager } from '../../components/pager';
import { useI18n } from '../../i18n/i18n';

type Notification = AdminComponents['schemas']['Notification'];

/** A realm user's inbox as the user sees it: unread first, then newest first; subjects and text shown as text. */
export function UserNotifications({ realmUid, userId }: { realmUid: string; userId: number }) {
  const { t, formatDate, formatNumber } = useI18n();
  const [page, setPage] = useState(1);
  const inbox = api.useQuery('get', '/customers/{realm_uid}/users/{id}/notifications', {
    params: { path: { realm_uid: realmUid, id: userId }, query: { page: String(page) } },
  });
  const columns: Column<Notification>[] = [
    { key: 'sent_at', label: t('realms.sent'), width: 200, text: (n) => formatDate(n.sent_at), render: (n) => formatDate(n.sent_at) },
    { key: 'subject', label: t('realms.subject'), text: (n) => n.subject, render: (n) => n.subject },
    { key: 'body', label: t('realms.body'), text: (n) => n.body, render: (n) => n.body },
    { key: 'opened', label: t('realms.opened'), width: 130, render: (n) => (n.opened ? t('common.yes') : <Badge variant="outline">{t('realms.unread')}</Badge>) },
  ];
  if (inbox.error) return <ErrorView error={inbox.error} />;
  if (!inbox.data) return null;
  return (
    <>
      <Text size="sm">{t('realms.unreadCount', { count: formatNumber(inbox.data.unread_count) })}</Text>
      {inbox.data.notifications.length > 0 ? (
        <DataTable columns={columns} items={inbox.data.notifications} rowKey={(n) => n.id} />
      ) : <Text role="status">{t('common.noResults')}</Text>}
      <Pager meta={inbox.data.meta} onPage={setPage} />
    </>
  );
}
