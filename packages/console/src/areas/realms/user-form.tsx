import { Checkbox, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { FormError, labelsIn } from '../../components/form-error';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { CustomFieldInput, type FieldValue } from './custom-field-input';
import { FormActions } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';

type RealmUser = AdminComponents['schemas']['RealmUser'];
export interface UserBody {
  email: string; username: string | null; first_name: string; last_name: string; second_last_name: string;
  external_id: string | null; active: boolean; password?: string; custom_fields: { key: string; value: FieldValue }[];
}

/** The attributes' labels, for their inputs and for a 422 that names them. */
const LABELS = {
  email: 'realms.email', username: 'realms.username', first_name: 'realms.firstName', last_name: 'realms.lastName',
  second_last_name: 'realms.secondLastName', external_id: 'realms.externalId', active: 'realms.active',
} as const satisfies Record<string, MessageKey>;

/** Create or edit a realm user, with an input per custom field of the realm (at most 20, so one page holds them all). */
export function UserForm({ realmUid, user, onSubmit, onCancel }: { realmUid: string; user?: RealmUser; onSubmit(body: UserBody): Promise<unknown>; onCancel?(): void }) {
  const { t } = useI18n();
  const fields = api.useQuery('get', '/customers/{realm_uid}/custom_fields', { params: { path: { realm_uid: realmUid }, query: { per_page: '20' } } });
  const values = Object.fromEntries((user?.custom_fields ?? []).map((field) => [field.key, field.value]));
  const form = useForm({
    initialValues: {
      email: user?.email ?? '', username: user?.username ?? '', first_name: user?.first_name ?? '', last_name: user?.last_name ?? '',
      second_last_name: user?.second_last_name ?? '', external_id: user?.external_id ?? '', active: user?.active ?? true, password: '',
      custom_fields: values as Record<string, FieldValue>,
    },
  });
  const { submit, error, guard } = useFormSubmit(form, ({ password, custom_fields, username, external_id, ...rest }) => onSubmit({
    ...rest, username: username || null, external_id: external_id || null, ...(password ? { password } : {}),
    custom_fields: (fields.data?.custom_fields ?? []).map((field) => ({ key: field.key, value: custom_fields[field.key] ?? null })),
  }), 'realm-user');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={{
          ...labelsIn(LABELS, t), password: t(user ? 'realms.passwordKeep' : 'realms.password'),
          ...Object.fromEntries((fields.data?.custom_fields ?? []).map((field) => [`custom_fields.${field.key}`, field.name])),
        }} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t(LABELS.email)} type="email" required {...form.getInputProps('email')} />
          <TextInput label={t(LABELS.username)} {...form.getInputProps('username')} />
          <TextInput label={t(LABELS.first_name)} {...form.getInputProps('first_name')} />
          <TextInput label={t(LABELS.last_name)} {...form.getInputProps('last_name')} />
          <TextInput label={t(LABELS.second_last_name)} {...form.getInputProps('second_last_name')} />
          <TextInput label={t(LABELS.external_id)} {...form.getInputProps('external_id')} />
          <PasswordInput label={t(user ? 'realms.passwordKeep' : 'realms.password')} autoComplete="new-password" {...form.getInputProps('password')} />
        </SimpleGrid>
        <Checkbox label={t(LABELS.active)} {...form.getInputProps('active', { type: 'checkbox' })} />
        {(fields.data?.custom_fields ?? []).map((field) => (
          <CustomFieldInput key={field.id} field={field} value={form.values.custom_fields[field.key] ?? null}
            error={form.errors[`custom_fields.${field.key}`] as string | undefined}
            onChange={(value) => form.setFieldValue(`custom_fields.${field.key}`, value as never)} />
        ))}
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
