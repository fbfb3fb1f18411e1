import { MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { roleContextWord, ROLE_CONTEXTS } from './role-contexts';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';

type Role = AdminComponents['schemas']['Role'];
export interface RoleValues { name: string; context: string; permissions: string[] }

/**
 * Create (context chosen) or edit a role's name and permissions. The permissions offered, with what each allows, are
 * those the server says a role of that context may carry (GET /roles/permissions); the server checks each.
 */
export function RoleForm({ item: role, onSubmit, onCancel }: EditFormProps<Role, RoleValues>) {
  const { t } = useI18n();
  const catalogue = api.useQuery('get', '/roles/permissions');
  const form = useForm<RoleValues>({
    initialValues: { name: role?.name ?? '', context: role?.context ?? 'account', permissions: role?.permissions ?? [] },
  });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'role');
  const offered = (catalogue.data?.contexts.find((c) => c.context === form.values.context)?.permissions ?? [])
    .map((permission) => ({ value: permission.key, label: `${permission.key} — ${permission.description}` }));
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        <TextInput label={t('identity.name')} required {...form.getInputProps('name')} />
        <Select label={t('identity.context')} data={ROLE_CONTEXTS.map((context) => ({ value: context, label: roleContextWord(context, t) }))} disabled={!!role} allowDeselect={false} {...form.getInputProps('context')}
          onChange={(context) => form.setValues({ context: context ?? 'account', permissions: [] })} />
        <MultiSelect label={t('identity.permissions')} data={offered} searchable {...form.getInputProps('permissions')} />
        <FormActions onCancel={onCancel} submitting={form.submitting} />
      </Stack>
    </form>
  );
}
