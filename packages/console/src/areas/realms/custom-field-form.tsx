import { Checkbox, Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormError, labelsIn } from '../../components/form-error';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { FormActions } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';

type CustomField = AdminComponents['schemas']['CustomField'];
export type CustomFieldBody = Pick<CustomField, 'key' | 'name' | 'type' | 'options' | 'required' | 'unique' | 'visible' | 'editable'>;
export const FIELD_TYPES: CustomField['type'][] = ['text', 'paragraph', 'number', 'date', 'checkbox', 'dropdown', 'choice'];
/** A field type in words. */
export const fieldTypeWord = (type: CustomField['type']): MessageKey => `realms.fieldType_${type}`;
/** The attributes' labels, for their inputs and for a 422 that names them. */
const LABELS = {
  key: 'realms.key', name: 'realms.name', type: 'realms.type', options: 'realms.options',
  required: 'realms.required', unique: 'realms.unique', visible: 'realms.visible', editable: 'realms.editable',
} as const satisfies Record<string, MessageKey>;

/** Create or edit a custom field; the options of a dropdown or choice field are typed one per line. */
export function CustomFieldForm({ field, onSubmit, onCancel }: { field?: CustomField; onSubmit(body: CustomFieldBody): Promise<unknown>; onCancel(): void }) {
  const { t } = useI18n();
  const form = useForm({
    initialValues: {
      key: field?.key ?? '', name: field?.name ?? '', type: field?.type ?? 'text', options: (field?.options ?? []).join('\n'),
      required: field?.required ?? false, unique: field?.unique ?? false, visible: field?.visible ?? true, editable: field?.editable ?? false,
    },
  });
  const { submit, error, guard } = useFormSubmit(form, (values) => onSubmit({
    ...values, options: values.options.split('\n').map((option) => option.trim()).filter(Boolean),
  }), `custom-field:${field?.id ?? 'new'}`);
  const withOptions = form.values.type === 'dropdown' || form.values.type === 'choice';
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={labelsIn(LABELS, t)} />
        <TextInput label={t(LABELS.key)} required {...form.getInputProps('key')} />
        <TextInput label={t(LABELS.name)} required {...form.getInputProps('name')} />
        <Select label={t(LABELS.type)} allowDeselect={false} data={FIELD_TYPES.map((type) => ({ value: type, label: t(fieldTypeWord(type)) }))} {...form.getInputProps('type')} />
        {withOptions && <Textarea label={t(LABELS.options)} autosize minRows={3} {...form.getInputProps('options')} />}
        <Group>
          <Checkbox label={t(LABELS.required)} {...form.getInputProps('required', { type: 'checkbox' })} />
          <Checkbox label={t(LABELS.unique)} {...form.getInputProps('unique', { type: 'checkbox' })} />
          <Checkbox label={t(LABELS.visible)} {...form.getInputProps('visible', { type: 'checkbox' })} />
          <Checkbox label={t(LABELS.editable)} {...form.getInputProps('editable', { type: 'checkbox' })} />
        </Group>
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
