import { memo } from 'react';
import { Checkbox, Fieldset, Group, NumberInput, Select, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import type { AdminComponents } from '@atrium/client';
import { useI18n } from '../../i18n/i18n';
import { AssetInput } from './asset-input';
import { useCalendarProps } from './calendar-labels';
import { EntryRefInput } from './entry-ref-input';
import type { FormValue } from './entry-values';
import { MarkdownEditor } from './markdown-editor';

type Field = AdminComponents['schemas']['ContentField'];
/** Where a field is edited; `writable` false (a member who may only read) shows the values without changing them. */
export interface FieldContext { spaceUid: string; typeUid: string; locale: string; writable: boolean }

interface EntryFieldInputProps { field: Field; label: string; value: FormValue; error?: string; onChange(value: FormValue): void; context: FieldContext }

/**
 * The control of an entry's field by the field's type, named `label`; a required field is marked (drafts may still lack it:
 * publishing checks). Rendered again only when its own value, error or setting changes, not on every keystroke in another
 * of the entry's fields (an entry may have dozens, rich text among them). `onChange` is left out of the comparison: the
 * editor's for a field always sets the same path.
 */
export const EntryFieldInput = memo(FieldControl, (before, after) => before.value === after.value && before.error === after.error
  && before.label === after.label && before.field === after.field && before.context.locale === after.context.locale
  && before.context.writable === after.context.writable && before.context.spaceUid === after.context.spaceUid && before.context.typeUid === after.context.typeUid);

function FieldControl({ field, label, value, error, onChange, context }: EntryFieldInputProps) {
  const { t } = useI18n();
  const calendar = useCalendarProps();
  const common = { label, withAsterisk: field.required, error };
  const clear = { clearable: true, clearButtonProps: { 'aria-label': t('content.clear', { name: label }) } };
  switch (field.type) {
    case 'rich_text':
      return <MarkdownEditor {...common} editable={context.writable} value={String(value ?? '')} onChange={onChange} />;
    case 'integer':
    case 'decimal':
      return <NumberInput {...common} allowDecimal={field.type === 'decimal'} value={typeof value === 'number' ? value : ''} onChange={(next) => onChange(typeof next === 'number' ? next : '')} />;
    case 'boolean':
      return <Checkbox label={label} error={error} checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} />;
    case 'date':
      return <DateInput {...common} {...clear} {...calendar} valueFormat="YYYY-MM-DD" value={typeof value === 'string' ? value : null} onChange={(next) => onChange(next)} />;
    case 'dropdown':
      return <Select {...common} {...clear} data={field.options} value={typeof value === 'string' ? value : null} onChange={(next) => onChange(next)} />;
    case 'checkbox':
      return (
        <Checkbox.Group {...common} value={value as string[]} onChange={(next) => onChange(next)}>
          <Group mt="xs">{field.options.map((option) => <Checkbox key={option} value={option} label={option} />)}</Group>
        </Checkbox.Group>
      );
    case 'location': {
      const place = value as { lat: number | ''; lon: number | '' };
      const set = (key: 'lat' | 'lon') => (next: string | number) => onChange({ ...place, [key]: typeof next === 'number' ? next : '' });
      return (
        <Fieldset legend={`${label}${field.required ? ' *' : ''}`} variant="unstyled">
          <Group>
            <NumberInput label={`${label}: ${t('content.latitude')}`} min={-90} max={90} value={place.lat} onChange={set('lat')} error={error} />
            <NumberInput label={`${label}: ${t('content.longitude')}`} min={-180} max={180} value={place.lon} onChange={set('lon')} />
          </Group>
        </Fieldset>
      );
    }
    case 'asset':
      return <AssetInput {...common} spaceUid={context.spaceUid} upload={context.writable} value={typeof value === 'string' ? value : null} onChange={onChange} />;
    case 'entry':
    case 'entries':
      return (
        <EntryRefInput {...common} spaceUid={context.spaceUid} typeUid={context.typeUid} locale={context.locale} many={field.type === 'entries'}
          value={Array.isArray(value) ? value : typeof value === 'string' ? [value] : []}
          onChange={(uuids) => onChange(field.type === 'entries' ? uuids : uuids[0] ?? null)} />
      );
    default:
      return <TextInput {...common} value={String(value ?? '')} onChange={(event) => onChange(event.currentTarget.value)} />;
  }
}
