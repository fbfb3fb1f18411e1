import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { admin } from '../../api/client';
import { FormError, showFieldErrors } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

type Campaign = AdminComponents['schemas']['Campaign'];
type Values = { starts_at: string; rate_per_second: number | string };
/** What the dialog states: the count (null when the member may not see it, undefined while it is counted). */
type Confirming = { values: Values; recipients: number | null | undefined };

/**
 * Asks for a delivery of the campaign: now, or at a local date and time, at an optional pace. Send first opens a
 * confirmation stating when it goes and to how many recipients (counted again at that moment, for members who may
 * read the realm's users) or to which audience.
 */
export function DeliverySchedule({ campaign, countable, onScheduled }: { campaign: Campaign; countable: boolean; onScheduled(): Promise<unknown> }) {
  const { t, formatDate } = useI18n();
  const form = useForm<Values>({ initialValues: { starts_at: '', rate_per_second: '' } });
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [sending, setSending] = useState(false);
  const deliver = async (values: Values) => {
    const body = {
      ...(values.starts_at ? { starts_at: new Date(values.starts_at).toISOString() } : {}),
      ...(typeof values.rate_per_second === 'number' ? { rate_per_second: values.rate_per_second } : {}),
    };
    form.clearErrors();
    setError(null);
    setSending(true);
    try {
      await admin.POST('/messaging/campaigns/{id}/deliveries', { params: { path: { id: campaign.id } }, body });
      form.reset();
      notify(t('engagement.scheduled'));
      await onScheduled();
    } catch (caught) {
      showFieldErrors(form, caught);
      setError(caught);
    } finally {
      setSending(false);
    }
  };

  const ask = form.onSubmit((values) => {
    setConfirming({ values, recipients: countable ? undefined : null });
    if (!countable) return;
    admin.GET('/messaging/campaigns/{id}/recipient_count', { params: { path: { id: campaign.id } } }).then(
      ({ data }) => setConfirming((current) => (current?.values === values ? { values, recipients: data!.recipients } : current)),
      () => setConfirming((current) => (current?.values === values ? { values, recipients: null } : current)),
    );
  });
  const confirm = async () => {
    const values = confirming!.values;
    setConfirming(null);
    await deliver(values);
  };

  const audience = campaign.segments_enabled ? t('engagement.audienceSegments', { list: campaign.segment_list }) : t('engagement.audienceRealm');
  const later = confirming?.values.starts_at;
  const when = later ? t('engagement.confirmAt', { date: formatDate(later) }) : t('engagement.confirmNow');
  return (
    <Paper withBorder p="md">
      <form onSubmit={ask}>
        <Title order={2} size="h4" mb="sm">{t('engagement.newDelivery')}</Title>
        <FormError error={error} />
        <Group align="flex-end">
          <TextInput label={t('engagement.startsAt')} type="datetime-local" w={260} {...form.getInputProps('starts_at')} />
          <NumberInput label={t('engagement.ratePerSecond')} min={1} allowDecimal={false} w={300} {...form.getInputProps('rate_per_second')} />
          <Button type="submit" loading={sending}>{t('engagement.send')}</Button>
        </Group>
      </form>
      <Modal opened={!!confirming} onClose={() => setConfirming(null)} title={t('engagement.confirmTitle', { name: campaign.name })}>
        {confirming && (
          <Stack data-confirm-delivery>
            <Text>{when}</Text>
            {confirming.recipients !== null && (
              <Text fw={700} data-confirm-count>
                {confirming.recipients === undefined ? t('common.loading') : t(confirming.recipients === 1 ? 'engagement.confirmOne' : 'engagement.confirmCount', { count: confirming.recipients })}
              </Text>
            )}
            <Text>{audience}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>{t('common.cancel')}</Button>
              <Button onClick={() => void confirm()} disabled={confirming.recipients === undefined} data-autofocus>
                {later ? t('engagement.confirmSchedule') : t('engagement.confirmSendNow')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}
