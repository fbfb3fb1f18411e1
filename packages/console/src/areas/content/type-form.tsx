import { Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { useI18n } from '../../i18n/i18n';
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
  const { t } = useI18n();
  const { submit, error, guard } = useFormSubmit(form, (values) => onSubmit({ ...values, fields: values.fields.map(fieldBody(locale)) }), 'content-type');
  // A 422 on `fields.0.name` reads "Field 1: Field identifier".
  const labels = {
    'fields': t('content.fieldNumber'), 'fields.*.name': t('content.fieldIdentifier'), [`fields.*.labels.${locale}`]: t('content.fieldLabel', { locale }),
    'fields.*.type': t('content.fieldType'), 'fields.*.options': t('content.fieldOptions'),
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <UidNameInputs error={error} inputProps={form.getInputProps} labels={labels} />
        <FieldEditor form={form} locale={locale} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
