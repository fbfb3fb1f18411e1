import { Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { ErrorView, NotFound } from '../../components/error-view';
import { isRecordId } from '../../components/record-id';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { CampaignDeliveries } from './campaign-deliveries';
import { CampaignForm } from './campaign-form';
import { CampaignTestSend } from './campaign-test-send';
import { DeliverySchedule } from './delivery-schedule';
import { DetailHeader } from '../../components/detail-header';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/campaigns/$campaignId');

export function CampaignPage() {
  const { t, formatDate, formatNumber } = useI18n();
  const { can } = useSession();
  const { campaignId } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const valid = isRecordId(campaignId);
  const id = Number(campaignId);
  const campaign = api.useQuery('get', '/messaging/campaigns/{id}', { params: { path: { id } } }, { enabled: valid });
  const realmUid = campaign.data?.realm_uid;
  // How many users a campaign reaches tells about the realm's users: shown to members who may read them.
  const countable = !!realmUid && can('realm.users.read', realmUid);
  const recipients = api.useQuery('get', '/messaging/campaigns/{id}/recipient_count', { params: { path: { id } } }, { enabled: valid && countable });

  if (!valid) return <NotFound />;
  if (campaign.error) return <ErrorView error={campaign.error} />;
  if (!campaign.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = campaign.data;
  const manage = can('messaging.send', current.realm_uid);

  return (
    <Stack>
      <DetailHeader title={current.name} canDelete={manage} remove={async () => {
        await admin.DELETE('/messaging/campaigns/{id}', { params: { path: { id } } });
        await queryClient.invalidateQueries({ queryKey: ['get', '/messaging/campaigns'] });
        await navigate({ to: '/campaigns' });
      }} />
      <Text size="sm" c="dimmed">{current.realm_uid} · {current.segments_enabled ? t('engagement.toSegments', { list: current.segment_list }) : t('engagement.toWholeRealm')} · {t('engagement.updated')} {formatDate(current.updated_at)}</Text>
      {countable && <Text data-recipient-count>{t('engagement.recipients', { count: recipients.data ? formatNumber(recipients.data.recipients) : '…' })}</Text>}
      <CampaignForm
        key={current.updated_at}
        campaign={current}
        onSubmit={async (values) => {
          await admin.PUT('/messaging/campaigns/{id}', {
            params: { path: { id } },
            body: { name: values.name, type: values.type, subject: values.subject, body: values.body, use_layout: values.use_layout, segments_enabled: values.segments_enabled, segment_ids: values.segment_ids },
          });
          notify(t('common.saved'));
          await queryClient.invalidateQueries({ queryKey: ['get', '/messaging/campaigns/{id}'] });
          await queryClient.invalidateQueries({ queryKey: ['get', '/messaging/campaigns/{id}/recipient_count'] });
        }}
      />
      {manage && <CampaignTestSend campaignId={id} />}
      {manage && <DeliverySchedule campaign={current} countable={countable} onScheduled={() => queryClient.invalidateQueries({ queryKey: ['get', '/messaging/campaigns/{id}/deliveries'] })} />}
      <CampaignDeliveries campaignId={id} manage={manage} />
    </Stack>
  );
}
