import { Checkbox, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormError, labelsIn } from '../../components/form-error';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { FormActions } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';

type Realm = AdminComponents['schemas']['Realm'];
export interface RealmValues { uid: string; name: string; active: boolean; custom_domain: string }

/** The attributes' labels, for their inputs and for a 422 that names them. */
const LABELS = { uid: 'realms.uid', name: 'realms.name', custom_domain: 'realms.customDomain', active: 'realms.active' } as const satisfies Record<string, MessageKey>;

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
        <FormError error={error} labels={labelsIn(LABELS, t)} />
        {!realm && <TextInput label={t(LABELS.uid)} required maxLength={100} {...form.getInputProps('uid')} />}
        <TextInput label={t(LABELS.name)} required {...form.getInputProps('name')} />
        <TextInput label={t(LABELS.custom_domain)} {...form.getInputProps('custom_domain')} />
        <Checkbox label={t(LABELS.active)} {...form.getInputProps('active', { type: 'checkbox' })} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
