import { Checkbox, MultiSelect, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { useFormSubmit } from '../../components/use-form-submit';

type Member = AdminComponents['schemas']['TeamMember'];
export interface MemberValues { email: string; name: string; password: string; active: boolean; roles: string[] }

/** Create or edit a team member: email, name, password (required only to create), state and account-wide roles. */
export function MemberForm({ item: member, onSubmit, onCancel }: EditFormProps<Member, MemberValues>) {
  const { t } = useI18n();
  const roles = api.useQuery('get', '/roles', { params: { query: { per_page: '100' } } });
  const accountRoles = (roles.data?.roles ?? []).filter((role) => role.context === 'account');
  const form = useForm<MemberValues>({
    initialValues: {
      email: member?.email ?? '', name: member?.name ?? '', password: '', active: member?.active ?? true,
      roles: member?.roles.filter((role) => role.target === null).map((role) => role.key) ?? [],
    },
  });
  const { submit, error } = useFormSubmit(form, onSubmit);
  return (
    <form onSubmit={submit}>
      <Stack>
        <FormError error={error} />
        <TextInput label={t('identity.email')} type="email" required {...form.getInputProps('email')} />
        <TextInput label={t('identity.name')} {...form.getInputProps('name')} />
        <PasswordInput label={t('identity.password')} required={!member} autoComplete="new-password" {...form.getInputProps('password')} />
        <MultiSelect
          label={t('identity.roles')}
          data={accountRoles.map((role) => ({ value: role.key, label: role.name }))}
          searchable
          {...form.getInputProps('roles')}
        />
        <Checkbox label={t('identity.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
        <FormActions onCancel={onCancel} submitting={form.submitting} />
      </Stack>
    </form>
  );
}
