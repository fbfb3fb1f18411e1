import { Fieldset, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';
import type { Site } from './site-form';

export interface PageValues {
  layout: string;
  visibility: 'public' | 'realm_users';
  locales: Record<string, { title: string; slug: string }>;
}

/** The visibility choices of a page, in the console's language. */
export function useVisibilityOptions() {
  const { t } = useI18n();
  return [{ value: 'public', label: t('sites.visibilityPublic') }, { value: 'realm_users', label: t('sites.visibilityRealm') }];
}

/** A new page: a title and a slug in each locale of the site, its layout and who may see it. */
export function PageForm({ site, layouts, onSubmit, onCancel }: { site: Site; layouts: string[]; onSubmit(values: PageValues): Promise<unknown>; onCancel(): void }) {
  const { t } = useI18n();
  const visibility = useVisibilityOptions();
  const form = useForm<PageValues>({
    initialValues: {
      layout: layouts[0] ?? '', visibility: 'public',
      locales: Object.fromEntries(site.locales.map((locale) => [locale, { title: '', slug: '' }])),
    },
  });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'page');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        {site.locales.map((locale) => (
          <Fieldset key={locale} legend={t('sites.inLocale', { locale })}>
            <TextInput label={t('sites.pageTitle')} required={locale === site.default_locale} {...form.getInputProps(`locales.${locale}.title`)} />
            <TextInput label={t('sites.slug')} description={t('sites.slugHint')} {...form.getInputProps(`locales.${locale}.slug`)} />
          </Fieldset>
        ))}
        <Select label={t('sites.layout')} required data={layouts} allowDeselect={false} {...form.getInputProps('layout')} />
        <Select label={t('sites.visibility')} data={visibility} allowDeselect={false} {...form.getInputProps('visibility')} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

/** The body of a new page: locales without a title are left out (they use the default locale's words). */
export const pageBody = (values: PageValues) => ({
  layout: values.layout, visibility: values.visibility,
  locales: Object.fromEntries(Object.entries(values.locales).filter(([, words]) => words.title.trim() !== '')),
});
