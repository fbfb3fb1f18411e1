import type { Locale } from './catalog.js';

const LOCALES: readonly Locale[] = ['en', 'es'];
const DEFAULT_LOCALE: Locale = 'en';
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The locale an `Accept-Language` header prefers (RFC 9110 12.5.4): among the ranges naming a locale we
 * have (by primary subtag, any case: `es-MX` is `es`, the highest weight of its ranges; `*` stands for every locale not named), the one of
 * highest weight, the first listed on a tie. A weight of 0 refuses, a malformed weight counts as 0.
 * English when nothing we have is accepted, or when no header is sent.
 */
export function preferredLocale(header: string | string[] | undefined): Locale {
  if (header === undefined) return DEFAULT_LOCALE;
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
  let best = DEFAULT_LOCALE;
  let top = { weight: 0, position: Infinity };
  for (const locale of LOCALES) {
    const found = weightOf(locale);
    if (found.weight > top.weight || (found.weight === top.weight && found.weight > 0 && found.position < top.position)) {
      best = locale;
      top = found;
    }
  }
  return best;
}
