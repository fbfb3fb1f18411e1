import { ActionIcon, Button, Checkbox, Fieldset, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { useI18n } from '../../i18n/i18n';

type Field = AdminComponents['schemas']['ContentField'];
export type FieldType = Field['type'];
/** A field as the form holds it: the choices as text, one per line. */
export type FieldValues = Omit<Field, 'options'> & { options: string; key: string };

/** The values of a content type's form. */
export interface TypeValues { uid: string; name: string; fields: FieldValues[] }

export const FIELD_TYPES: FieldType[] = ['text', 'rich_text', 'integer', 'decimal', 'boolean', 'date', 'dropdown', 'checkbox', 'location', 'asset', 'entry', 'entries'];
const CHOICE_TYPES: FieldType[] = ['dropdown', 'checkbox'];
const SORTABLE_TYPES: FieldType[] = ['text', 'integer', 'decimal', 'boolean', 'date', 'dropdown'];
const FILTERABLE_TYPES: FieldType[] = [...SORTABLE_TYPES, 'asset', 'entry'];

let nextKey = 0;
export const fieldValues = (field?: Field): FieldValues => ({
  key: `f${++nextKey}`, name: field?.name ?? '', type: field?.type ?? 'text', required: field?.required ?? false,
  localized: field?.localized ?? false, sortable: field?.sortable ?? false, filterable: field?.filterable ?? false, options: (field?.options ?? []).join('\n'),
});

/** The body of a field as the API takes it: options only for dropdown and checkbox, sortable and filterable only where they may be. */
export const fieldBody = ({ key: _key, options, ...field }: FieldValues) => ({
  ...field,
  sortable: SORTABLE_TYPES.includes(field.type) && field.sortable,
  filterable: FILTERABLE_TYPES.includes(field.type) && field.filterable,
  options: CHOICE_TYPES.includes(field.type) ? options.split('\n').map((option) => option.trim()).filter(Boolean) : [],
});

/** The fields of a content type: add, remove and move them by buttons; each with its type, flags and choices. */
export function FieldEditor({ form }: { form: UseFormReturnType<TypeValues> }) {
  const { t } = useI18n();
  const fields = form.values.fields;
  const at = (i: number) => `fields.${i}` as const;
  const input = (path: string, checkbox = false) => form.getInputProps(path, checkbox ? { type: 'checkbox' } : undefined);
  return (
    <Stack>
      {fields.length === 0 && <Text>{t('content.noFields')}</Text>}
      {fields.map((field, i) => {
        const label = field.name || t('content.fieldNumber', { number: i + 1 });
        return (
          <Fieldset key={field.key} legend={t('content.fieldNumber', { number: i + 1 })} data-field-row={i}>
            <Group align="flex-end" wrap="wrap">
              <TextInput label={t('content.fieldName')} required {...input(`${at(i)}.name`)} />
              <Select label={t('content.fieldType')} allowDeselect={false} data={FIELD_TYPES} {...input(`${at(i)}.type`)} />
              <Checkbox label={t('content.required')} {...input(`${at(i)}.required`, true)} />
              <Checkbox label={t('content.localized')} {...input(`${at(i)}.localized`, true)} />
              {SORTABLE_TYPES.includes(field.type) && <Checkbox label={t('content.sortable')} {...input(`${at(i)}.sortable`, true)} />}
              {FILTERABLE_TYPES.includes(field.type) && <Checkbox label={t('content.filterable')} {...input(`${at(i)}.filterable`, true)} />}
              <Group gap={4} ml="auto">
                <ActionIcon variant="default" disabled={i === 0} aria-label={t('content.moveUp', { name: label })}
                  onClick={() => form.reorderListItem('fields', { from: i, to: i - 1 })}>↑</ActionIcon>
                <ActionIcon variant="default" disabled={i === fields.length - 1} aria-label={t('content.moveDown', { name: label })}
                  onClick={() => form.reorderListItem('fields', { from: i, to: i + 1 })}>↓</ActionIcon>
                <ActionIcon variant="default" color="red" aria-label={t('content.removeField', { name: label })}
                  onClick={() => form.removeListItem('fields', i)}>×</ActionIcon>
              </Group>
            </Group>
            {CHOICE_TYPES.includes(field.type) && <Textarea mt="sm" label={t('content.fieldOptions')} autosize minRows={2} required {...input(`${at(i)}.options`)} />}
          </Fieldset>
        );
      })}
      <Group>
        <Button variant="default" onClick={() => form.insertListItem('fields', fieldValues())}>{t('content.addField')}</Button>
      </Group>
    </Stack>
  );
}
