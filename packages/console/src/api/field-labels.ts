import type { ErrorsBody } from '@atrium/client';

/**
 * The labels a form shows for the attributes the server names (`details[].field`): by path
 * (`settings.branding.logo_url`), with `*` for an item's position (`fields.*.name`), and a list's
 * own path for one of its items, `{number}` standing for its position (`fields` → "Field {number}").
 */
export type FieldLabels = Record<string, string>;

const own = (labels: FieldLabels, key: string) => (Object.hasOwn(labels, key) ? labels[key] : undefined);

/** `logo_url` → "Logo url"; `fields` (a list, named for one item) → "Field". */
const humanize = (segment: string, item = false) => {
  const words = segment.replaceAll('_', ' ');
  const one = item && words.endsWith('s') ? words.slice(0, -1) : words;
  return one.charAt(0).toUpperCase() + one.slice(1);
};

/**
 * An attribute as the form's member knows it: its label, each list item it sits in by the list's
 * item label and position from 1 ("Field 1: Name"); never the server's path.
 */
export function fieldLabelOf(path: string, labels: FieldLabels = {}): string {
  const segments = path.split('.');
  const pattern = segments.map((segment) => (/^\d+$/.test(segment) ? '*' : segment));
  const items: string[] = [];
  segments.forEach((segment, i) => {
    if (!/^\d+$/.test(segment) || i === 0) return;
    const list = pattern.slice(0, i).join('.');
    const number = String(Number(segment) + 1);
    const item = own(labels, list) ?? `${humanize(segments[i - 1] ?? '', true)} {number}`;
    items.push(item.includes('{number}') ? item.replace('{number}', number) : `${item} ${number}`);
  });
  const last = [...segments].reverse().find((segment) => !/^\d+$/.test(segment)) ?? path;
  const leaf = own(labels, pattern.join('.')) ?? (/^\d+$/.test(segments.at(-1)!) ? null : humanize(last));
  return [...items, leaf].filter(Boolean).join(': ');
}

/** A 422's problems, each after its attribute's label: "Logo: is not a valid URL". */
export const fieldProblems = (details: ErrorsBody['details'], labels?: FieldLabels) =>
  (details ?? []).map((detail) => `${fieldLabelOf(detail.field, labels)}: ${detail.messages.join(', ')}`).join(' · ');
