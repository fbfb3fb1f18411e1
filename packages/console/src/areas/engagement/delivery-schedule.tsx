import { Button, Group, NumberInput, Paper, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { admin } from '../../api/client';
import { FormError } from '../../components/form-error';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';

/** Asks for a delivery of the campaign: now, or at a local date and time, at an optional pace. */
export function DeliverySchedule({ campaignId, onScheduled }: { campaignId: number; onScheduled(): Promise<unknown> }) {
  const { t } = useI18n();
  const form = useForm<{ starts_at: string; rate_per_second: number | string }>({ initialValues: { starts_at: '', rate_per_second: '' } });
  const { submit, error } = useFormSubmit(form, async (values) => {
    const body = {
      ...(values.starts_at ? { starts_at: new Date(values.starts_at).toISOString() } : {}),
      ...(typeof values.rate_per_second === 'number' ? { rate_per_second: values.rate_per_second } : {}),
    };
    await admin.POST('/messaging/campaigns/{id}/deliveries', { params: { path: { id: campaignId } }, body });
    form.reset();
    notifications.show({ message: t('engagement.scheduled') });
    await onScheduled();
  });
  return (
    <Paper withBorder p="md">
      <form onSubmit={submit}>
        <Title order={2} size="h4" mb="sm">{t('engagement.newDelivery')}</Title>
        <FormError error={error} />
        <Group align="flex-end">
          <TextInput label={t('engagement.startsAt')} type="datetime-local" w={260} {...form.getInputProps('starts_at')} />
          <NumberInput label={t('engagement.ratePerSecond')} min={1} allowDecimal={false} w={300} {...form.getInputProps('rate_per_second')} />
          <Button type="submit" loading={form.submitting}>{t('engagement.send')}</Button>
        </Group>
      </form>
    </Paper>
  );
}
