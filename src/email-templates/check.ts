import { LOCALES, isLocale, type Locale } from '../i18n/locale.js';
import { FieldErrors } from '../errors/index.js';
import { templateProblemAt } from '../shared/liquid.js';
import { exampleVariables, KINDS, type TemplateKind } from './kinds.js';
import { engineOf, FIELDS, renderContent } from './render.js';
import type { LocaleContent, TemplateContent } from './shipped.js';

export interface TemplateInput {
  format?: 'html' | 'mjml';
  locales: Record<string, LocaleContent>;
}

const at = (line: number | null, column: number | null) => (line ? `line ${line}${column ? `, column ${column}` : ''}: ` : '');

/**
 * Why a field's Liquid does not parse or reads a variable its kind does not have (`line 2, column 4: ...`),
 * or null. Only the names at the top are checked: `user.nickname` is nil when rendered, not an error.
 */
export function fieldProblems(kind: TemplateKind, field: typeof FIELDS[number], source: string): string[] {
  const engine = engineOf(field);
  let templates;
  try {
    templates = engine.parse(source);
  } catch (err) {
    const { message, line, column } = templateProblemAt(err);
    return [`is not valid Liquid: ${at(line, column)}${message}`];
  }
  const known = new Set(KINDS[kind].variables.map((v) => v.name));
  const globals = engine.analyzeSync(templates).globals;
  return Object.entries(globals).filter(([name]) => !known.has(name)).map(([name, uses]) => {
    const { row, col } = uses[0].location;
    return `uses an unknown variable: ${at(row, col)}${name} (the variables of ${kind}: ${[...known].join(', ')})`;
  });
}

/**
 * A template as saved: every language we have, each field parsed and its variables checked, then rendered
 * once with the kind's examples (which compiles MJML). 422 naming each field (`locales.es.html`) otherwise.
 */
export async function checkTemplate(kind: TemplateKind, input: TemplateInput): Promise<TemplateContent> {
  const errors = new FieldErrors();
  const format = input.format ?? 'html';
  for (const locale of Object.keys(input.locales)) {
    if (!isLocale(locale)) errors.add(`locales.${locale}`, `is not a supported locale (${LOCALES.join(', ')})`);
  }
  for (const locale of LOCALES) {
    if (!Object.hasOwn(input.locales, locale)) errors.add(`locales.${locale}`, "can't be blank");
  }
  errors.throwIfAny();
  const locales = Object.fromEntries(LOCALES.map((l) => [l, input.locales[l]])) as Record<Locale, LocaleContent>;
  for (const locale of LOCALES) {
    for (const field of FIELDS) {
      for (const problem of fieldProblems(kind, field, locales[locale][field])) errors.add(`locales.${locale}.${field}`, problem);
    }
    if (kind !== 'campaign_layout' && !locales[locale].subject.trim()) errors.add(`locales.${locale}.subject`, "can't be blank");
    if (!locales[locale].text.trim() && !locales[locale].html.trim()) errors.add(`locales.${locale}.text`, "can't be blank when the HTML is");
  }
  errors.throwIfAny();
  for (const locale of LOCALES) {
    try {
      await renderContent(format, locales[locale], exampleVariables(kind, locale));
    } catch (err) {
      errors.add(`locales.${locale}`, `does not render: ${(err as Error).message}`);
    }
  }
  errors.throwIfAny();
  return { format, locales };
}
