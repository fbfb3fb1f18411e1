import { useState } from 'react';
import { Text } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { DataTable } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import type { Column } from '../../components/list-page';
import { Pager } from '../../components/pager';
import { PER_PAGE } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';

type Message = AdminComponents['schemas']['MessageDelivery'];

/** The message records of one delivery, a server page at a time: who, status, when sent, opened, why it failed. */
export function DeliveryMessages({ deliveryId }: { deliveryId: number }) {
  const { t, formatDate } = useI18n();
  const [page, setPage] = useState(1);
  const messages = api.useQuery('get', '/messaging/message_deliveries', {
    params: { query: { delivery_id: deliveryId, page: String(page), per_page: String(PER_PAGE) } },
  });
  const columns: Column<Message>[] = [
    { key: 'user', label: t('engagement.recipient'), render: (m) => `${m.user_name} <${m.user_email}>` },
    { key: 'status', label: t('engagement.status'), render: (m) => t(`engagement.s_${m.status}`) },
    { key: 'sent_at', label: t('engagement.sentAt'), render: (m) => (m.sent_at ? formatDate(m.sent_at) : '—') },
    { key: 'opened_at', label: t('engagement.opened'), render: (m) => (m.opened_at ? formatDate(m.opened_at) : t('common.no')) },
    { key: 'failure_reason', label: t('engagement.failure'), render: (m) => m.failure_reason ?? '—' },
  ];
  if (messages.error) return <ErrorView error={messages.error} />;
  if (!messages.data) return <Text role="status">{t('common.loading')}</Text>;
  return (
    <>
      <DataTable columns={columns} items={messages.data.message_deliveries} rowKey={(m) => m.id} rowProps={(m) => ({ 'data-message': m.user_email })} />
      <Pager meta={'meta' in messages.data ? messages.data.meta : undefined} onPage={setPage} />
    </>
  );
}
