import { FileInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';

export interface UploadValues { file: File | null; title: string }

/** A file to upload to the space's assets, with its title (the alternative text of an image). */
export function AssetUploadForm({ onSubmit, onCancel }: { onSubmit(values: UploadValues): Promise<unknown>; onCancel(): void }) {
  const { t } = useI18n();
  const form = useForm<UploadValues>({ initialValues: { file: null, title: '' } });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'asset-upload');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        <FileInput label={t('content.file')} required clearable clearButtonProps={{ 'aria-label': t('content.clear', { name: t('content.file') }) }} {...form.getInputProps('file')} />
        <TextInput label={t('content.title')} {...form.getInputProps('title')} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
