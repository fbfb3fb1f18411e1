import { Checkbox, Fieldset, Group, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';
import type { Draft, DraftField } from './form-draft';

/** A field as the hosted page asks it, in the form's default locale; disabled (a preview takes no answer). */
function PreviewField({ field, locale }: { field: DraftField; locale: string }) {
  const label = field.labels[locale] || field.name;
  const common = { label, description: field.help?.[locale], required: field.type === 'consent' || !!field.required };
  const choices = field.choices.split('\n').map((line) => line.trim()).filter(Boolean)
    .map((line) => { const [value, labels = value] = line.split('=').map((part) => part.trim()); return { value: value!, label: labels!.split('|')[0]!.trim() || value! }; });
  switch (field.type) {
    case 'long_text': return <Textarea {...common} minRows={3} />;
    case 'checkbox': case 'consent': return <Checkbox label={label} description={common.description} />;
    case 'single_choice': return <Radio.Group {...common}><Group mt={4}>{choices.map((c) => <Radio key={c.value} value={c.value} label={c.label} />)}</Group></Radio.Group>;
    case 'multiple_choice': return <Checkbox.Group {...common}><Group mt={4}>{choices.map((c) => <Checkbox key={c.value} value={c.value} label={c.label} />)}</Group></Checkbox.Group>;
    default: return <TextInput {...common} type={{ email: 'email', number: 'number', date: 'date', file: 'file' }[field.type as string] ?? 'text'} />;
  }
}

/** The form as it is being built, step by step, before it is saved (the hosted page itself cannot be framed). */
export function FormPreview({ draft }: { draft: Draft }) {
  const { t } = useI18n();
  const locale = draft.default_locale;
  const stepCount = draft.steps.length;
  const groups = stepCount
    ? draft.steps.map((step, i) => ({ title: step.labels[locale] || t('forms.step'), fields: draft.fields.filter((f) => Math.min(f.step, stepCount - 1) === i) }))
    : [{ title: null, fields: draft.fields }];
  return (
    <Fieldset legend={t('forms.preview')} disabled>
      <Stack>
        {groups.map((group, i) => {
          const fields = group.fields.map((field, j) => <PreviewField key={j} field={field} locale={locale} />);
          return group.title === null ? <Stack key={i} gap="sm">{fields}</Stack> : <Fieldset key={i} legend={group.title}><Stack gap="sm">{fields}</Stack></Fieldset>;
        })}
      </Stack>
    </Fieldset>
  );
}
