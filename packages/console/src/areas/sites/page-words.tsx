import { Fieldset, Select, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';
import { useVisibilityOptions } from './page-form';
import type { Site } from './site-form';

export type Words = Record<string, { title: string; description: string; slug: string }>;
export interface PageSettings { words: Words; layout: string; visibility: 'public' | 'realm_users' }

/** A page's title, description and slug in each locale of the site, then its layout and visibility. */
export function PageWords({ site, layouts, value, onChange, readOnly }: {
  site: Site; layouts: string[]; value: PageSettings; onChange(value: PageSettings): void; readOnly: boolean;
}) {
  const { t } = useI18n();
  const visibility = useVisibilityOptions();
  const word = (locale: string, key: 'title' | 'description' | 'slug', text: string) => onChange({
    ...value, words: { ...value.words, [locale]: { title: '', description: '', slug: '', ...value.words[locale], [key]: text } },
  });
  return (
    <>
      <SimpleGrid cols={{ base: 1, md: Math.min(site.locales.length, 2) }}>
        {site.locales.map((locale) => (
          <Fieldset key={locale} legend={t('sites.inLocale', { locale })}>
            <TextInput label={t('sites.pageTitle')} value={value.words[locale]?.title ?? ''} readOnly={readOnly} onChange={(event) => word(locale, 'title', event.currentTarget.value)} />
            <TextInput label={t('sites.slug')} value={value.words[locale]?.slug ?? ''} readOnly={readOnly} onChange={(event) => word(locale, 'slug', event.currentTarget.value)} />
            <Textarea label={t('sites.description')} value={value.words[locale]?.description ?? ''} readOnly={readOnly} onChange={(event) => word(locale, 'description', event.currentTarget.value)} />
          </Fieldset>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label={t('sites.layout')} data={layouts} value={value.layout} allowDeselect={false} readOnly={readOnly}
          onChange={(layout) => onChange({ ...value, layout: layout ?? value.layout })} />
        <Select label={t('sites.visibility')} data={visibility} value={value.visibility} allowDeselect={false} readOnly={readOnly}
          onChange={(choice) => onChange({ ...value, visibility: (choice ?? value.visibility) as PageSettings['visibility'] })} />
      </SimpleGrid>
    </>
  );
}

/** The words of a page as the API takes them: a locale with nothing in it is left out (it uses the default's). */
export const wordsBody = (words: Words) =>
  Object.fromEntries(Object.entries(words).filter(([, w]) => w.title !== '' || w.slug !== '' || w.description !== ''));
