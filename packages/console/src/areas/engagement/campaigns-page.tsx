import { Button, Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { CampaignForm } from './campaign-form';

type Campaign = AdminComponents['schemas']['CampaignListItem'];
const route = getRouteApi('/app/campaigns');

export function CampaignsPage() {
  const { t, formatDate, formatNumber } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/campaigns' });
  const list = api.useQuery('get', '/messaging/campaigns', { params: { query: listQuery(search) } });
  const [creating, { open, close }] = useDisclosure(false);

  const columns: Column<Campaign>[] = [
    { key: 'name', label: t('engagement.campaignName'), sortable: true, text: (campaign) => campaign.name ?? '', render: (campaign) => <AnchorLink to="/campaigns/$campaignId" params={{ campaignId: String(campaign.id) }}>{campaign.name}</AnchorLink> },
    { key: 'realm_uid', label: t('engagement.realm'), text: (campaign) => campaign.realm_uid ?? '', render: (campaign) => campaign.realm_uid },
    { key: 'type', label: t('engagement.type'), width: 150, render: (campaign) => (campaign.type === 'notification' ? t('engagement.notification') : t('engagement.mailing')) },
    { key: 'sent_count', label: t('engagement.sentCount'), width: 110, render: (campaign) => formatNumber(campaign.sent_count ?? 0) },
    { key: 'updated_at', label: t('engagement.updated'), sortable: true, width: 200, text: (campaign) => (campaign.updated_at ? formatDate(campaign.updated_at) : ''), render: (campaign) => (campaign.updated_at ? formatDate(campaign.updated_at) : '') },
  ];

  return (
    <>
      <ListPage
        title={t('engagement.campaigns')}
        columns={columns}
        rowKey={(campaign) => campaign.id ?? 0}
        items={list.data?.campaigns}
        meta={list.data && 'meta' in list.data ? list.data.meta : undefined}
        loading={list.isLoading}
        error={list.error}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
        actions={can('messaging.send') && <Button onClick={open}>{t('engagement.newCampaign')}</Button>}
      />
      <Modal opened={creating} onClose={close} title={t('engagement.newCampaign')} size="lg">
        <CampaignForm
          onCancel={close}
          onSubmit={async (values) => {
            const { data } = await admin.POST('/messaging/campaigns', { body: values });
            close();
            await navigate({ to: '/campaigns/$campaignId', params: { campaignId: String(data!.id) } });
          }}
        />
      </Modal>
    </>
  );
}
