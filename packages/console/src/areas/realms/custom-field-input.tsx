import { Checkbox, NumberInput, Select, Textarea, TextInput } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';

type CustomField = AdminComponents['schemas']['CustomField'];
export type FieldValue = string | number | boolean | null;

/** The input of a user's custom field value by the field's type (null clears it). */
export function CustomFieldInput({ field, value, error, onChange }: { field: CustomField; value: FieldValue; error?: string; onChange(value: FieldValue): void }) {
  const common = { label: field.name, required: field.required, error };
  switch (field.type) {
    case 'paragraph':
      return <Textarea {...common} autosize minRows={2} value={String(value ?? '')} onChange={(event) => onChange(event.currentTarget.value || null)} />;
    case 'number':
      return <NumberInput {...common} value={typeof value === 'number' ? value : ''} onChange={(next) => onChange(typeof next === 'number' ? next : null)} />;
    case 'date':
      return <TextInput {...common} type="date" value={String(value ?? '')} onChange={(event) => onChange(event.currentTarget.value || null)} />;
    case 'checkbox':
      return <Checkbox label={field.name} error={error} checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} />;
    case 'dropdown':
    case 'choice':
      return <Select {...common} clearable data={field.options} value={typeof value === 'string' ? value : null} onChange={(next) => onChange(next)} />;
    default:
      return <TextInput {...common} value={String(value ?? '')} onChange={(event) => onChange(event.currentTarget.value || null)} />;
  }
}
