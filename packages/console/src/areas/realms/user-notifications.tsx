import { useState } from 'react';
import { Badge, Table, Text } from '@mantine/core';
import { api } from '../../api/client';
import { Pager } from '../../components/pager';
import { useI18n } from '../../i18n/i18n';

/** A realm user's inbox as the user sees it: unread first, then newest first; subjects and text shown as text. */
export function UserNotifications({ realmUid, userId }: { realmUid: string; userId: number }) {
  const { t, formatDate, formatNumber } = useI18n();
  const [page, setPage] = useState(1);
  const inbox = api.useQuery('get', '/customers/{realm_uid}/users/{id}/notifications', {
    params: { path: { realm_uid: realmUid, id: userId }, query: { page: String(page) } },
  });
  if (!inbox.data) return null;
  return (
    <>
      <Text size="sm">{t('realms.unreadCount', { count: formatNumber(inbox.data.unread_count) })}</Text>
      {inbox.data.notifications.length > 0 ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('realms.sent')}</Table.Th>
                <Table.Th scope="col">{t('realms.subject')}</Table.Th>
                <Table.Th scope="col">{t('realms.body')}</Table.Th>
                <Table.Th scope="col">{t('realms.opened')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {inbox.data.notifications.map((notification) => (
                <Table.Tr key={notification.id}>
                  <Table.Td>{formatDate(notification.sent_at)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{notification.subject}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{notification.body}</Table.Td>
                  <Table.Td>{notification.opened ? t('common.yes') : <Badge variant="outline">{t('realms.unread')}</Badge>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : <Text role="status">{t('common.noResults')}</Text>}
      <Pager meta={inbox.data.meta} onPage={setPage} />
    </>
  );
}
