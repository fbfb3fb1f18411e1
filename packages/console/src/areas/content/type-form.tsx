import { Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';
import { fieldBody, FieldEditor, fieldValues, type TypeValues } from './field-editor';

type ContentType = AdminComponents['schemas']['ContentType'];
export type TypeBody = { uid: string; name: string; fields: ReturnType<typeof fieldBody>[] };

/** Create or edit a content type: its uid, name and fields (a 422 shows on the field it names, `fields.2.options`). */
export function TypeForm({ item, onSubmit, onCancel }: EditFormProps<ContentType, TypeBody>) {
  const { t } = useI18n();
  const form = useForm<TypeValues>({
    initialValues: { uid: item?.uid ?? '', name: item?.name ?? '', fields: (item?.fields ?? []).map(fieldValues) },
  });
  const { submit, error } = useFormSubmit(form, (values) => onSubmit({ ...values, fields: values.fields.map(fieldBody) }));
  return (
    <form onSubmit={submit}>
      <Stack>
        <FormError error={error} />
        <TextInput label={t('content.uid')} required {...form.getInputProps('uid')} />
        <TextInput label={t('content.name')} required {...form.getInputProps('name')} />
        <FieldEditor form={form} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
