import { useState } from 'react';
import { Button, Drawer, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { ListPage, type Column } from '../../components/list-page';
import { PER_PAGE } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { DeliveryMessages } from './delivery-messages';
import { notify } from '../../components/notify';

type Delivery = AdminComponents['schemas']['CampaignDeliveryListItem'];
const route = getRouteApi('/app/campaigns/$campaignId');
/** While a delivery is under way its counts move: the list asks again this often. */
const REFRESH_MS = 5000;

/** A campaign's deliveries (page in the URL), their counts, cancel and resend actions, and each one's messages in a drawer. */
export function CampaignDeliveries({ campaignId, manage }: { campaignId: number; manage: boolean }) {
  const { t, formatDate, formatNumber } = useI18n();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/campaigns/$campaignId' });
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Delivery | null>(null);
  const path = { id: campaignId };
  const deliveries = api.useQuery('get', '/messaging/campaigns/{id}/deliveries', {
    params: { path, query: { page: String(search.page ?? 1), per_page: String(PER_PAGE) } },
  }, { refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'scheduled' || d.status === 'sending') ? REFRESH_MS : false) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', '/messaging/campaigns/{id}/deliveries'] });
  const act = (run: () => Promise<unknown>, message: string) => async () => {
    await run();
    notify(message);
    await refresh();
  };

  const columns: Column<Delivery>[] = [
    { key: 'starts_at', label: t('engagement.delivery'), render: (d) => <Button variant="subtle" size="compact-sm" onClick={() => setOpen(d)}>{formatDate(d.starts_at)}</Button> },
    { key: 'status', label: t('engagement.status'), render: (d) => t(`engagement.s_${d.status}`) },
    { key: 'reach', label: t('engagement.reach'), render: (d) => (d.reach < 0 ? t('engagement.unknownYet') : formatNumber(d.reach)) },
    { key: 'sent_count', label: t('engagement.sent'), render: (d) => formatNumber(d.sent_count) },
    { key: 'failed_count', label: t('engagement.failed'), render: (d) => formatNumber(d.failed_count) },
    { key: 'in_doubt_count', label: t('engagement.inDoubt'), render: (d) => formatNumber(d.in_doubt_count) },
    ...(manage ? [{
      key: 'actions', label: t('common.actions'), render: (d: Delivery) => (
        <Group gap="xs" wrap="nowrap">
          {d.status === 'scheduled' && <Button size="compact-sm" variant="default" onClick={act(() => admin.POST('/messaging/campaigns/{id}/deliveries/{delivery_id}/cancel', { params: { path: { ...path, delivery_id: d.id } } }), t('engagement.canceled'))}>{t('engagement.cancelDelivery')}</Button>}
          {d.in_doubt_count > 0 && <Button size="compact-sm" variant="default" onClick={act(() => admin.POST('/messaging/campaigns/{id}/deliveries/{delivery_id}/resend_in_doubt', { params: { path: { ...path, delivery_id: d.id } } }), t('engagement.resent'))}>{t('engagement.resendInDoubt')}</Button>}
        </Group>
      ),
    }] : []),
  ];

  return (
    <>
      <ListPage
        title={t('engagement.deliveries')} columns={columns} rowKey={(d) => d.id} searchable={false} headingLevel={2}
        items={deliveries.data?.deliveries} meta={deliveries.data && 'meta' in deliveries.data ? deliveries.data.meta : undefined} loading={deliveries.isLoading} error={deliveries.error}
        search={search} onSearch={(next) => void navigate({ search: { page: next.page } })}
      />
      <Drawer opened={open !== null} onClose={() => setOpen(null)} position="right" size="xl"
        title={open ? t('engagement.messagesOf', { date: formatDate(open.starts_at) }) : ''}>
        {open && <DeliveryMessages deliveryId={open.id} />}
      </Drawer>
    </>
  );
}
