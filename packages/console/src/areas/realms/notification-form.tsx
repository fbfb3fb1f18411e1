import { Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { admin } from '../../api/client';
import { FormError, labelsIn } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { FormActions } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { notify } from '../../components/notify';

/** Sends a notification to a user's inbox. */
export function NotificationForm({ realmUid, userId }: { realmUid: string; userId: number }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const form = useForm({ initialValues: { subject: '', body: '', url: '' } });
  const { submit, error, guard } = useFormSubmit(form, async ({ url, ...values }) => {
    await admin.POST('/customers/{realm_uid}/users/{id}/notifications', { params: { path: { realm_uid: realmUid, id: userId } }, body: { ...values, url: url || null } });
    notify(t('realms.sent'));
    form.reset();
    await queryClient.invalidateQueries({ queryKey: ['get', '/customers/{realm_uid}/users/{id}/notifications'] });
  }, 'notification');
  return (
    <form onSubmit={submit} aria-label={t('realms.sendNotification')}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={labelsIn({ subject: 'realms.subject', body: 'realms.body', url: 'realms.url' }, t)} />
        <TextInput label={t('realms.subject')} required {...form.getInputProps('subject')} />
        <Textarea label={t('realms.body')} autosize minRows={2} {...form.getInputProps('body')} />
        <TextInput label={t('realms.url')} {...form.getInputProps('url')} />
        <FormActions submitting={form.submitting} />
      </Stack>
    </form>
  );
}
