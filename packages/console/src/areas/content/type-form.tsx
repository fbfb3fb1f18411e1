import { Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { UidNameInputs } from './uid-name-inputs';
import { fieldBody, FieldEditor, fieldValues, type TypeValues } from './field-editor';

type ContentType = AdminComponents['schemas']['ContentType'];
export type TypeBody = { uid: string; name: string; fields: ReturnType<ReturnType<typeof fieldBody>>[] };

/**
 * Create or edit a content type: its uid, name and fields (a 422 shows on the field it names, `fields.2.options`); the
 * fields' labels are written in `locale`, the space's default.
 */
export function TypeForm({ item, locale, onSubmit, onCancel }: EditFormProps<ContentType, TypeBody> & { locale: string }) {
  const form = useForm<TypeValues>({
    initialValues: { uid: item?.uid ?? '', name: item?.name ?? '', fields: (item?.fields ?? []).map((field) => fieldValues(locale, field)) },
  });
  const { submit, error, guard } = useFormSubmit(form, (values) => onSubmit({ ...values, fields: values.fields.map(fieldBody(locale)) }), 'content-type');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <UidNameInputs error={error} inputProps={form.getInputProps} />
        <FieldEditor form={form} locale={locale} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
