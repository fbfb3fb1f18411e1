import { Stack, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';
import { UidNameInputs } from './uid-name-inputs';

type Space = AdminComponents['schemas']['ContentSpaceListItem'];
export interface SpaceValues { uid: string; name: string; default_locale: string; locales: string[] }

/** Create or edit a content space: its uid, name and locales (the default one first). */
export function SpaceForm({ item, onSubmit, onCancel }: EditFormProps<Space, SpaceValues>) {
  const { t } = useI18n();
  const form = useForm<SpaceValues>({
    initialValues: { uid: item?.uid ?? '', name: item?.name ?? '', default_locale: item?.default_locale ?? 'en', locales: item?.locales ?? [] },
  });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, `space:${item?.uid ?? 'new'}`);
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <UidNameInputs error={error} inputProps={form.getInputProps} />
        <TextInput label={t('content.defaultLocale')} required {...form.getInputProps('default_locale')} />
        <TagsInput label={t('content.locales')} {...form.getInputProps('locales')} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
