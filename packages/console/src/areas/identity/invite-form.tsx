import { Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormError } from '../../components/form-error';
import { FormActions } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';
import { RoleAssignments, type RoleRef } from './role-assignments';

export interface InviteValues { email: string; first_name: string; last_name: string; roles: RoleRef[] }

/** Invite a member by email: the server mails them a link to choose their password. */
export function InviteForm({ onSubmit, onCancel }: { onSubmit(values: InviteValues): Promise<unknown>; onCancel(): void }) {
  const { t } = useI18n();
  const form = useForm<InviteValues>({ initialValues: { email: '', first_name: '', last_name: '', roles: [] } });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'invitation');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        <TextInput label={t('identity.email')} type="email" required {...form.getInputProps('email')} />
        <Group grow>
          <TextInput label={t('identity.firstName')} {...form.getInputProps('first_name')} />
          <TextInput label={t('identity.lastName')} {...form.getInputProps('last_name')} />
        </Group>
        <RoleAssignments value={form.values.roles} onChange={(roles) => form.setFieldValue('roles', roles)} />
        <FormActions onCancel={onCancel} submitting={form.submitting} />
      </Stack>
    </form>
  );
}
