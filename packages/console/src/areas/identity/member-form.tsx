import { Checkbox, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormError, labelsIn } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { RoleAssignments, type RoleRef } from './role-assignments';

type Member = AdminComponents['schemas']['TeamMember'];
export interface MemberValues { email: string; name: string; password: string; active: boolean; roles: RoleRef[] }

/** Create or edit a team member: email, name, password (required only to create), state, and roles with their realm, space or site. */
export function MemberForm({ item: member, onSubmit, onCancel }: EditFormProps<Member, MemberValues>) {
  const { t } = useI18n();
  const form = useForm<MemberValues>({
    initialValues: {
      email: member?.email ?? '', name: member?.name ?? '', password: '', active: member?.active ?? true,
      roles: member?.roles ?? [],
    },
  });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'member');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={labelsIn({ email: 'identity.email', name: 'identity.name', password: 'identity.password', active: 'identity.active' }, t)} />
        <TextInput label={t('identity.email')} type="email" required {...form.getInputProps('email')} />
        <TextInput label={t('identity.name')} {...form.getInputProps('name')} />
        <PasswordInput label={t('identity.password')} required={!member} autoComplete="new-password" {...form.getInputProps('password')} />
        <RoleAssignments value={form.values.roles} onChange={(roles) => form.setFieldValue('roles', roles)} />
        <Checkbox label={t('identity.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
        <FormActions onCancel={onCancel} submitting={form.submitting} />
      </Stack>
    </form>
  );
}
