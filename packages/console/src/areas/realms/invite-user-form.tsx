import { Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';

/** Invite someone to sign up in the realm: the server mails them a one-time link to its sign-up page (valid 7 days). */
export function InviteUserForm({ onSubmit, onCancel }: { onSubmit(email: string): Promise<unknown>; onCancel(): void }) {
  const { t } = useI18n();
  const form = useForm({ initialValues: { email: '' } });
  const { submit, error, guard } = useFormSubmit(form, (values) => onSubmit(values.email), 'realm-invitation');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <Text size="sm">{t('realms.inviteHint')}</Text>
        <FormError error={error} labels={{ email: t('realms.email') }} />
        <TextInput label={t('realms.email')} type="email" required data-autofocus {...form.getInputProps('email')} />
        <FormActions onCancel={onCancel} submitting={form.submitting} submitLabel={t('realms.sendInvitation')} />
      </Stack>
    </form>
  );
}
