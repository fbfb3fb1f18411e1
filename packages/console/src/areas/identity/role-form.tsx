import { MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { useFormSubmit } from '../../components/use-form-submit';

type Role = AdminComponents['schemas']['Role'];
export interface RoleValues { name: string; context: string; permissions: string[] }
const CONTEXTS = ['account', 'site', 'space', 'realm'];

/**
 * Create (context chosen) or edit a role's name and permissions. The permissions offered are those the server's
 * roles of the same context hold (the account's owner role holds every one); the server checks each.
 */
export function RoleForm({ item: role, onSubmit, onCancel }: EditFormProps<Role, RoleValues>) {
  const { t } = useI18n();
  const roles = api.useQuery('get', '/roles', { params: { query: { per_page: '100' } } });
  const form = useForm<RoleValues>({
    initialValues: { name: role?.name ?? '', context: role?.context ?? 'account', permissions: role?.permissions ?? [] },
  });
  const { submit, error } = useFormSubmit(form, onSubmit);
  const offered = [...new Set((roles.data?.roles ?? []).filter((other) => other.context === form.values.context).flatMap((other) => other.permissions))].sort();
  return (
    <form onSubmit={submit}>
      <Stack>
        <FormError error={error} />
        <TextInput label={t('identity.name')} required {...form.getInputProps('name')} />
        <Select label={t('identity.context')} data={CONTEXTS} disabled={!!role} allowDeselect={false} {...form.getInputProps('context')} />
        <MultiSelect label={t('identity.permissions')} data={offered} searchable {...form.getInputProps('permissions')} />
        <FormActions onCancel={onCancel} submitting={form.submitting} />
      </Stack>
    </form>
  );
}
