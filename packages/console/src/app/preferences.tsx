import { Group, SegmentedControl, Select, VisuallyHidden, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useId } from 'react';
import { LOCALES, type Locale } from '../i18n/define';
import { useI18n } from '../i18n/i18n';

const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', es: 'Español' };

/** The colour scheme (light, dark, system) and the language, both remembered in this browser. */
export function Preferences() {
  const { t, locale, setLocale } = useI18n();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const schemeLabel = useId();
  return (
    <Group gap="xs" wrap="nowrap">
      <VisuallyHidden id={schemeLabel}>{t('common.colorScheme')}</VisuallyHidden>
      <SegmentedControl
        size="xs"
        aria-labelledby={schemeLabel}
        value={colorScheme}
        onChange={(value) => setColorScheme(value as MantineColorScheme)}
        data={[
          { value: 'light', label: t('common.light') },
          { value: 'dark', label: t('common.dark') },
          { value: 'auto', label: t('common.system') },
        ]}
      />
      <Select
        size="xs"
        w={110}
        aria-label={t('common.language')}
        value={locale}
        allowDeselect={false}
        onChange={(value) => value && setLocale(value as Locale)}
        data={LOCALES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
      />
    </Group>
  );
}
