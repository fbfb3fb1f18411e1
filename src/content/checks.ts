import type { FieldErrors } from '../errors/index.js';
import { LIMITS } from './schema.js';

/** Space and type uids: slugs, usable in a URL path and as a role's target without encoding. */
export const CONTENT_UID = /^[a-z0-9][a-z0-9_-]{0,99}$/;

/** The uid as stored, or undefined; a missing uid is an error only when `required` (creation). */
export function checkedUid(errors: FieldErrors, raw: string | undefined, required: boolean): string | undefined {
  if (raw === undefined && !required) return undefined;
  const uid = raw?.trim() ?? '';
  if (!uid) errors.add('uid', "can't be blank");
  else if (!CONTENT_UID.test(uid)) errors.add('uid', `may contain only lower-case letters, digits, "-" and "_", starting with a letter or digit (at most ${LIMITS.uid})`);
  return uid;
}

export function checkedName(errors: FieldErrors, raw: string | undefined, required: boolean): string | undefined {
  if (raw === undefined && !required) return undefined;
  const name = raw?.trim() ?? '';
  if (!name) errors.add('name', "can't be blank");
  else if (name.length > LIMITS.name) errors.add('name', `is too long (maximum is ${LIMITS.name} characters)`);
  return name;
}

const TAG = /^([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?$/i;

/**
 * A language tag in its usual case (`pt-br` is `pt-BR`, `zh-hant-tw` is `zh-Hant-TW`), or null when it
 * is not one: a language, optionally a script and a region (the BCP 47 subset content locales use).
 */
export function languageTag(raw: string): string | null {
  const match = TAG.exec(raw.trim());
  if (!match) return null;
  const [, language, script, region] = match;
  return [language.toLowerCase(), script && script[0].toUpperCase() + script.slice(1).toLowerCase(), region?.toUpperCase()]
    .filter(Boolean).join('-');
}

/**
 * The locales as stored (a content space's, a site's): valid tags in their usual case, the default first, no
 * repeats, at most `limit`. Nothing when neither is sent; on creation (`current` null) the default is required.
 */
export function checkedLocales(
  errors: FieldErrors, input: { default_locale?: string; locales?: string[] }, current: { defaultLocale: string; locales: string[] } | null, limit: number,
): { defaultLocale?: string; locales?: string[] } {
  // A change that names neither keeps them; something new must name its default locale.
  if (input.default_locale === undefined && input.locales === undefined && current) return {};
  let defaultLocale = current?.defaultLocale;
  if (input.default_locale !== undefined) {
    defaultLocale = languageTag(input.default_locale) ?? undefined;
    if (!defaultLocale) errors.add('default_locale', `is not a language tag such as en or pt-BR: ${input.default_locale.slice(0, 100)}`);
  } else if (!current) {
    errors.add('default_locale', "can't be blank");
  }
  const others: string[] = [];
  for (const [i, raw] of (input.locales ?? current?.locales ?? []).entries()) {
    const tag = languageTag(raw);
    if (!tag) errors.add(`locales.${i}`, `is not a language tag such as en or pt-BR: ${raw.slice(0, 100)}`);
    else others.push(tag);
  }
  const locales = [...new Set([defaultLocale, ...others].filter((tag): tag is string => Boolean(tag)))];
  if (locales.length > limit) errors.add('locales', `are too many (maximum is ${limit})`);
  return { defaultLocale, locales };
}
