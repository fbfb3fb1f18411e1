import { useRef, useState } from 'react';
import { Alert, Button, Checkbox, Fieldset, Group, Stack, Tabs, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { fieldErrorsOf } from '../../api/errors';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { EntryFieldInput, type FieldContext } from './entry-field-input';
import { fieldLabel } from './field-labels';
import { entryBody, entryValues, errorPath, type EntryValues, type FormValue } from './entry-values';
import { SegmentsInput } from './segments-input';

type Entry = AdminComponents['schemas']['ContentAdminEntry'];
type Field = AdminComponents['schemas']['ContentField'];
export type SaveLocale = (body: ReturnType<typeof entryBody>) => Promise<void>;

interface EntryEditorProps {
  fields: Field[];
  locales: string[];
  drafts: Record<string, Entry | null>;
  context: Omit<FieldContext, 'locale'>;
  tab: string;
  onTab(locale: string): void;
  /** Saves one locale's draft (creates the entry first when new). */
  saveLocale: SaveLocale;
  /** Called once every changed locale is saved. */
  onSaved(): Promise<unknown>;
  /** The publishing buttons, given the editor's save (publishing saves what is not saved first). */
  actions?(saveFirst: () => Promise<boolean>): React.ReactNode;
}

/**
 * The entry editor generated from the content type: shared fields, then one tab per locale with its name, slug and localized fields;
 * each field named by its label (`locales[0]` is the space's default locale).
 */
export function EntryEditor({ fields, locales, drafts, context, tab, onTab, saveLocale, onSaved, actions }: EntryEditorProps) {
  const { t, locale: language } = useI18n();
  const form = useForm<EntryValues>({ initialValues: entryValues(fields, locales, drafts) });
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const done = useRef(false);

  const save = async (): Promise<boolean> => {
    const changed = locales.filter((locale) => form.isDirty(`locales.${locale}`));
    // A new entry is created in the default locale first: the other locales' drafts start from it. Shared fields alone
    // are saved through a locale that has a draft, so that no locale version is started by the way.
    const lead = !Object.keys(drafts).length ? locales[0]! : changed.includes(tab) ? tab
      : changed[0] ?? (drafts[tab] ? tab : locales.find((locale) => drafts[locale]) ?? tab);
    const order = [lead, ...changed.filter((locale) => locale !== lead)];
    if (!form.isDirty()) return true;
    form.clearErrors();
    setError(null);
    setSaving(true);
    try {
      for (const locale of order) {
        try {
          await saveLocale(entryBody(fields, form.values, locale));
        } catch (caught) {
          form.setErrors(Object.fromEntries(Object.entries(fieldErrorsOf(caught)).map(([name, text]) => [errorPath(fields, locale, name), text])));
          setError(caught);
          onTab(locale);
          return false;
        }
      }
      done.current = true;
      await onSaved();
      return true;
    } finally {
      setSaving(false);
    }
  };

  const input = (path: string, field: Field, locale: string) => {
    const props = form.getInputProps(path);
    return <EntryFieldInput key={path} field={field} label={fieldLabel(field, language, locales[0])} value={props.value as FormValue} error={props.error as string | undefined}
      onChange={(value) => form.setFieldValue(path as never, value as never)} context={{ ...context, locale }} />;
  };
  const shared = fields.filter((field) => !field.localized);
  const localized = fields.filter((field) => field.localized);

  return (
    <form onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <Stack>
        <UnsavedChanges name="entry" values={() => form.getValues()} changed={() => form.isDirty()} saving={() => done.current} onRestore={(kept) => form.setValues(kept)} />
        <FormError error={error} />
        <Tabs value={tab} onChange={(next) => next && onTab(next)} keepMounted={false}>
          <Tabs.List aria-label={t('content.localeTabs')}>
            {locales.map((locale) => <Tabs.Tab key={locale} value={locale}>{locale}</Tabs.Tab>)}
          </Tabs.List>
          {locales.map((locale) => (
            <Tabs.Panel key={locale} value={locale} pt="md">
              <Fieldset variant="unstyled" disabled={!context.writable} p={0}>
                <Stack>
                  {!drafts[locale] && Object.keys(drafts).length > 0 && <Alert color="blue">{t('content.noDraft')}</Alert>}
                  <TextInput label={t('content.name')} withAsterisk {...form.getInputProps(`locales.${locale}.name`)} />
                  <Group grow align="flex-start">
                    <TextInput label={t('content.slug')} {...form.getInputProps(`locales.${locale}.slug`)} />
                    <TextInput label={t('content.category')} {...form.getInputProps(`locales.${locale}.category`)} />
                  </Group>
                  <TagsInput label={t('content.tags')} {...form.getInputProps(`locales.${locale}.tags`)} />
                  {localized.map((field) => input(`locales.${locale}.fields.${field.name}`, field, locale))}
                </Stack>
              </Fieldset>
            </Tabs.Panel>
          ))}
        </Tabs>
        <Fieldset legend={t('content.sharedFields')} disabled={!context.writable}>
          <Stack>
            {shared.map((field) => input(`shared.${field.name}`, field, tab))}
            <Checkbox label={t('content.private')} {...form.getInputProps('private', { type: 'checkbox' })} />
            {form.values.private && (
              <SegmentsInput value={form.values.segment_uuids} error={form.errors.segment_uuids as string | undefined}
                onChange={(uuids) => form.setFieldValue('segment_uuids', uuids)} />
            )}
          </Stack>
        </Fieldset>
        <Group>
          {context.writable && <Button type="submit" loading={saving}>{t('content.saveDraft')}</Button>}
          {actions?.(save)}
        </Group>
      </Stack>
    </form>
  );
}
