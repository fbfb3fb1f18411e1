/** The languages every text an end user reads is written in (realm pages, their mails, event titles). */
export const LOCALES = ['en', 'es'] as const;
export type Locale = typeof LOCALES[number];

export const isLocale = (value: unknown): value is Locale => (LOCALES as readonly unknown[]).includes(value);

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The locale an `Accept-Language` header prefers (RFC 9110 12.5.4): among the ranges naming a locale we
 * have (by primary subtag, any case: `es-MX` is `es`, the highest weight of its ranges; `*` stands for every locale not named), the one of
 * highest weight, the first listed on a tie. A weight of 0 refuses, a malformed weight counts as 0.
 * `fallback` (English unless given: a realm's default language) when nothing we have is accepted, when no header
 * is sent, or on a tie that only `*` decides.
 */
export function preferredLocale(header: string | string[] | undefined, fallback: Locale = 'en'): Locale {
  if (header === undefined) return fallback;
  const ranges = (Array.isArray(header) ? header.join(',') : header).split(',').map((part) => {
    const [range, ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => /^q\s*=/i.test(p));
    const weight = q === undefined ? 1 : QVALUE.test(q.replace(/^q\s*=\s*/i, '')) ? Number(q.replace(/^q\s*=\s*/i, '')) : 0;
    return { primary: range.toLowerCase().split('-')[0], weight };
  });
  const weightOf = (locale: Locale) => {
    const named = ranges.map((r, position) => ({ ...r, position })).filter((r) => r.primary === locale)
      .reduce<{ weight: number; position: number } | null>((top, r) => (top && top.weight >= r.weight ? top : r), null);
    if (named) return named;
    const wildcard = ranges.findIndex((r) => r.primary === '*');
    return wildcard < 0 ? { weight: 0, position: Infinity } : { weight: ranges[wildcard].weight, position: wildcard };
  };
  let best = fallback;
  let top = { weight: 0, position: Infinity };
  // The fallback is weighed first, so that it wins a tie no range decides.
  for (const locale of [fallback, ...LOCALES.filter((l) => l !== fallback)]) {
    const found = weightOf(locale);
    if (found.weight > top.weight || (found.weight === top.weight && found.weight > 0 && found.position < top.position)) {
      best = locale;
      top = found;
    }
  }
  return best;
}
