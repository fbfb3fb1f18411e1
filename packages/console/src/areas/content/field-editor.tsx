import { ActionIcon, Button, Checkbox, Fieldset, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { identifierOf, identifierProblem } from './field-labels';

type Field = AdminComponents['schemas']['ContentField'];
export type FieldType = Field['type'];
/**
 * A field as the form holds it: the choices as text, one per line; `label` the one of the space's default locale (the
 * other locales' labels are kept as they are); `follows` while the identifier is still derived from the label.
 */
export type FieldValues = Omit<Field, 'options'> & { options: string; key: string; label: string; follows: boolean };

/** The values of a content type's form. */
export interface TypeValues { uid: string; name: string; fields: FieldValues[] }

export const FIELD_TYPES: FieldType[] = ['text', 'rich_text', 'integer', 'decimal', 'boolean', 'date', 'dropdown', 'checkbox', 'location', 'asset', 'entry', 'entries'];
/** A field type in words. */
export const fieldTypeWord = (type: FieldType): MessageKey => `content.type_${type}`;
const CHOICE_TYPES: FieldType[] = ['dropdown', 'checkbox'];
const SORTABLE_TYPES: FieldType[] = ['text', 'integer', 'decimal', 'boolean', 'date', 'dropdown'];
const FILTERABLE_TYPES: FieldType[] = [...SORTABLE_TYPES, 'asset', 'entry'];

let nextKey = 0;
/** A stored field's identifier never follows its label: renaming a field drops its values from every entry. */
export const fieldValues = (locale: string, field?: Field): FieldValues => ({
  key: `f${++nextKey}`, name: field?.name ?? '', labels: field?.labels ?? {}, label: field?.labels[locale] ?? '', follows: !field,
  type: field?.type ?? 'text', required: field?.required ?? false, localized: field?.localized ?? false, sortable: field?.sortable ?? false,
  filterable: field?.filterable ?? false, options: (field?.options ?? []).join('\n'),
});

/** The body of a field as the API takes it: options only for dropdown and checkbox, sortable and filterable only where they may be. */
export const fieldBody = (locale: string) => ({ key: _key, label, follows: _follows, labels, options, ...field }: FieldValues) => {
  const { [locale]: _old, ...others } = labels;
  return {
    ...field,
    labels: label.trim() ? { ...others, [locale]: label.trim() } : others,
    sortable: SORTABLE_TYPES.includes(field.type) && field.sortable,
    filterable: FILTERABLE_TYPES.includes(field.type) && field.filterable,
    options: CHOICE_TYPES.includes(field.type) ? options.split('\n').map((option) => option.trim()).filter(Boolean) : [],
  };
};

/**
 * The fields of a content type: add, remove and move them by buttons; each with its label in `locale` (the space's default), the
 * identifier derived from it until edited by hand and checked as typed, its type, flags and choices.
 */
export function FieldEditor({ form, locale }: { form: UseFormReturnType<TypeValues>; locale: string }) {
  const { t } = useI18n();
  const fields = form.values.fields;
  const at = (i: number) => `fields.${i}` as const;
  const input = (path: string, checkbox = false) => form.getInputProps(path, checkbox ? { type: 'checkbox' } : undefined);
  const identifierError = (i: number) => {
    const problem = identifierProblem(fields[i]!.name, fields.filter((_, j) => j !== i).map((field) => field.name));
    return problem ? t(problem === 'rule' ? 'content.identifierRule' : 'content.identifierTaken') : form.errors[`${at(i)}.name`];
  };
  return (
    <Stack>
      {fields.length === 0 && <Text>{t('content.noFields')}</Text>}
      {fields.map((field, i) => {
        const label = field.label || field.name || t('content.fieldNumber', { number: i + 1 });
        return (
          <Fieldset key={field.key} legend={t('content.fieldNumber', { number: i + 1 })} data-field-row={i}>
            <Group align="flex-start" wrap="wrap">
              <TextInput label={t('content.fieldLabel', { locale })} value={field.label} error={form.errors[`${at(i)}.labels.${locale}`]}
                onChange={(event) => {
                  const next = event.currentTarget.value;
                  form.setFieldValue(`${at(i)}.label`, next);
                  form.clearFieldError(`${at(i)}.labels.${locale}`);
                  if (field.follows) form.setFieldValue(`${at(i)}.name`, identifierOf(next));
                }} />
              <TextInput label={t('content.fieldIdentifier')} description={t('content.fieldIdentifierHelp')} required value={field.name}
                error={identifierError(i)}
                onChange={(event) => {
                  form.setFieldValue(`${at(i)}.name`, event.currentTarget.value);
                  form.setFieldValue(`${at(i)}.follows`, false);
                }} />
              <Select label={t('content.fieldType')} allowDeselect={false} data={FIELD_TYPES.map((type) => ({ value: type, label: t(fieldTypeWord(type)) }))} {...input(`${at(i)}.type`)} />
            </Group>
            <Group mt="sm" align="center" wrap="wrap">
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
        <Button variant="default" onClick={() => form.insertListItem('fields', fieldValues(locale))}>{t('content.addField')}</Button>
      </Group>
    </Stack>
  );
}
