import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { catalogue, type MessageKey } from './catalogue';
import { LOCALES, type Locale } from './define';

const STORAGE_KEY = 'atrium.locale';

/** The remembered choice, else the browser's languages (what it sends as Accept-Language), else English. */
export function initialLocale(): Locale {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored && (LOCALES as readonly string[]).includes(stored)) return stored as Locale;
  for (const language of navigator.languages ?? [navigator.language]) {
    const base = language.toLowerCase().split('-')[0];
    if ((LOCALES as readonly string[]).includes(base ?? '')) return base as Locale;
  }
  return 'en';
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function translate(locale: Locale, key: MessageKey, values?: Record<string, string | number>): string {
  const [namespace, name] = key.split('.', 2) as [keyof typeof catalogue, string];
  const template = (catalogue[namespace]?.[locale] as Record<string, string> | undefined)?.[name];
  if (template === undefined) {
    // Cannot happen with typed keys; the browser tests fail on this line in the console.
    console.error(`untranslated message ${locale}:${key}`);
    return key;
  }
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, slot: string) => {
    const value = values[slot];
    if (value === undefined) return whole;
    return typeof value === 'number' ? new Intl.NumberFormat(locale).format(value) : value;
  });
}

interface I18n {
  locale: Locale;
  setLocale(locale: Locale): void;
  t: Translate;
  formatDate(value: string | number | Date | null | undefined): string;
  formatNumber(value: number): string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const setLocale = useCallback((next: Locale) => {
    localStorage.setItem(STORAGE_KEY, next);
    document.documentElement.lang = next;
    setLocaleState(next);
  }, []);
  const value = useMemo<I18n>(() => {
    document.documentElement.lang = locale;
    const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const numbers = new Intl.NumberFormat(locale);
    return {
      locale,
      setLocale,
      t: (key, values) => translate(locale, key, values),
      formatDate: (value) => (value === null || value === undefined || value === '' ? '—' : dates.format(new Date(value))),
      formatNumber: (value) => numbers.format(value),
    };
  }, [locale, setLocale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n outside I18nProvider');
  return i18n;
}
