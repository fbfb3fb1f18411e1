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
