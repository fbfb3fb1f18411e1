import { Button, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { admin } from '../../api/client';
import { FormError } from '../../components/form-error';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

/** Sends the saved campaign once to an address, as the server renders it ("[Test]" before the subject). */
export function CampaignTestSend({ campaignId }: { campaignId: number }) {
  const { t } = useI18n();
  const form = useForm({ initialValues: { email: '' } });
  const { submit, error, guard } = useFormSubmit(form, async ({ email }) => {
    const { data } = await admin.POST('/messaging/campaigns/{id}/test', { params: { path: { id: campaignId } }, body: { email } });
    notify(t('engagement.testSent', { email: data!.sent_to }));
  }, 'campaign-test-send');
  return (
    <form onSubmit={submit}>
      <UnsavedChanges {...guard} />
      <FormError error={error} />
      <Group align="flex-end">
        <TextInput label={t('engagement.testEmail')} type="email" required w={320} maw="100%" {...form.getInputProps('email')} />
        <Button type="submit" variant="default" loading={form.submitting}>{t('engagement.sendTest')}</Button>
      </Group>
    </form>
  );
}
