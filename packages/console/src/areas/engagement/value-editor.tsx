import { Group, MultiSelect, NativeSelect, TagsInput, Text, TextInput } from '@mantine/core';
import type { ValueEditorProps } from 'react-querybuilder';
import { useI18n } from '../../i18n/i18n';
import type { SegmentField } from './segment-fields';
import { valuelessOperators, type Rule } from './segment-query';

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(text) : text(value) ? [text(value)] : []);
const pair = (value: unknown): [string, string] => (Array.isArray(value) ? [text(value[0]), text(value[1])] : [text(value), '']);

/** The message of a condition the editor marked invalid (see SegmentEditor's validator). */
function errorOf(validation: ValueEditorProps['validation']): string | undefined {
  if (typeof validation === 'object' && validation && !validation.valid) return String(validation.reasons?.[0] ?? '');
  return undefined;
}

/**
 * A condition's value, drawn for its attribute's type: yes or no, the options of a dropdown field, several texts or
 * options for "is one of", two bounds for "is between", a number of days, a date, a number or a text.
 */
export function ValueEditor(props: ValueEditorProps) {
  const { t } = useI18n();
  const field = props.fieldData as SegmentField;
  const { operator, value, title, handleOnChange } = props;
  const error = errorOf(props.validation);
  if (valuelessOperators.has(operator)) return null;
  if (field.kind === 'boolean') {
    return (
      <NativeSelect aria-label={title} size="xs" value={String(value !== false)} onChange={(event) => handleOnChange(event.currentTarget.value === 'true')}
        data={[{ value: 'true', label: t('engagement.yes') }, { value: 'false', label: t('engagement.no') }]} />
    );
  }
  if (operator === 'in') {
    const common = { 'aria-label': title, size: 'xs', value: list(value), onChange: handleOnChange, error, miw: 200 } as const;
    return field.choices ? <MultiSelect {...common} data={field.choices} /> : <TagsInput {...common} />;
  }
  if (field.choices) {
    return <NativeSelect aria-label={title} size="xs" value={text(value)} onChange={(event) => handleOnChange(event.currentTarget.value)} data={field.choices} error={error} />;
  }
  const period = (props.rule as Rule).within_last_days;
  const type = operator === 'within_last_days' || field.kind === 'number' ? 'number' : field.kind === 'date' ? 'date' : 'text';
  if (operator === 'between') {
    const [low, high] = pair(value);
    return (
      <Group gap={4} wrap="nowrap">
        <TextInput aria-label={`${title}: ${t('engagement.from')}`} size="xs" w={type === 'date' ? 150 : 110} type={type} value={low} error={error} onChange={(event) => handleOnChange([event.currentTarget.value, high])} />
        <TextInput aria-label={`${title}: ${t('engagement.to')}`} size="xs" w={type === 'date' ? 150 : 110} type={type} value={high} error={error ? true : undefined} onChange={(event) => handleOnChange([low, event.currentTarget.value])} />
      </Group>
    );
  }
  const input = <TextInput aria-label={title} size="xs" type={type} value={text(value)} error={error} onChange={(event) => handleOnChange(event.currentTarget.value)} />;
  // An event count over a period (set through the API) keeps it, and says so.
  return period === undefined ? input : <Group gap={6} wrap="nowrap">{input}<Text size="sm">{t('engagement.inLastDays', { count: period })}</Text></Group>;
}
