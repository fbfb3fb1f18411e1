import { Checkbox, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { FormActions } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';

type Realm = AdminComponents['schemas']['Realm'];
export interface RealmValues { uid: string; name: string; active: boolean; custom_domain: string }

/** Create (uid editable) or edit a realm's name, state and domain; a 422 lands on its field. */
export function RealmForm({ realm, onSubmit, onCancel }: {
  realm?: Realm;
  onSubmit(values: RealmValues): Promise<unknown>;
  onCancel?(): void;
}) {
  const { t } = useI18n();
  const form = useForm<RealmValues>({
    initialValues: { uid: realm?.uid ?? '', name: realm?.name ?? '', active: realm?.active ?? true, custom_domain: realm?.custom_domain ?? '' },
  });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'realm');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        {!realm && <TextInput label={t('realms.uid')} required maxLength={100} {...form.getInputProps('uid')} />}
        <TextInput label={t('realms.name')} required {...form.getInputProps('name')} />
        <TextInput label={t('realms.customDomain')} {...form.getInputProps('custom_domain')} />
        <Checkbox label={t('realms.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
