import type { AdminComponents } from '@atrium/client';

type Field = AdminComponents['schemas']['ContentField'];

/** The server's rule for a field's identifier (src/content/types/fields.ts, FIELD_NAME). */
const IDENTIFIER = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The identifier a label gives: accents stripped, lower case, every run of other characters one "_"; one starting with a
 * digit is prefixed with `f_` (an identifier starts with a letter). Empty for a label without Latin letters or digits.
 */
export function identifierOf(label: string): string {
  const words = label.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  const start = /^[0-9]/.test(words) ? `f_${words}` : words;
  return start.slice(0, 64).replace(/_+$/, '');
}

/** What is wrong with an identifier as typed, checked as the server does: the rule, then repeats among the type's fields. */
export function identifierProblem(name: string, others: string[]): 'rule' | 'taken' | null {
  if (!name) return null;
  if (!IDENTIFIER.test(name)) return 'rule';
  return others.includes(name) ? 'taken' : null;
}

/** How a field is named to an editor: its label in the console's language, else in the space's default locale, else its identifier. */
export function fieldLabel(field: Pick<Field, 'name' | 'labels'>, language: string, defaultLocale: string | undefined): string {
  const { labels } = field;
  const inLanguage = labels[language] ?? Object.entries(labels).find(([locale]) => locale.split('-')[0] === language)?.[1];
  return inLanguage ?? (defaultLocale !== undefined ? labels[defaultLocale] : undefined) ?? field.name;
}
