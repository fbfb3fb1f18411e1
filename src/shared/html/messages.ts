import type { FastifyRequest } from 'fastify';
import { isLocale, preferredLocale, type Locale } from '../../i18n/locale.js';
import { en, type Texts } from './messages/en.js';
import { es } from './messages/es.js';

export type { Texts } from './messages/en.js';

/**
 * Every text an end user reads on the realm pages and in the mails they send, in each language: one
 * catalog per language under messages/. The English catalog fixes the keys and their parameters; the
 * others are typed by it, so a text missing in one language does not compile. The same thing is worded
 * as the event titles word it (shared/event-catalog.ts): "Iniciar sesión", "Cerrar sesión", "Restaurar contraseña".
 */
const CATALOG: Record<Locale, Texts> = { en, es };

export const textsIn = (locale: Locale): Texts => CATALOG[locale];

/** A realm's default language; English for a value no catalog has. */
export const realmLanguage = (realm: { defaultLanguage: string } | undefined): Locale =>
  (realm && isLocale(realm.defaultLanguage) ? realm.defaultLanguage : 'en');

/** The texts of a page: the language the browser prefers among ours, else the realm's default language. */
export const pageTexts = (request: FastifyRequest, realm?: { defaultLanguage: string }): Texts =>
  textsIn(preferredLocale(request.headers['accept-language'], realmLanguage(realm)));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const FIELD_PATTERNS = Object.entries(en.fieldMessages).map(([key, template]) => ({
  key: key as keyof Texts['fieldMessages'],
  pattern: new RegExp(`^${escapeRegExp(template).replace(/\\\{(\w+)\\\}/g, '(?<$1>.+)')}$`),
}));

/** A field message of the user writer in the texts' language; one the catalog does not know stays as it is. */
export function fieldMessage(texts: Texts, message: string): string {
  for (const { key, pattern } of FIELD_PATTERNS) {
    const match = pattern.exec(message);
    if (match) return texts.fieldMessages[key].replace(/\{(\w+)\}/g, (_, name: string) => match.groups?.[name] ?? '');
  }
  return message;
}
