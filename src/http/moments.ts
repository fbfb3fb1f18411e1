import type { Ajv, FormatDefinition } from 'ajv';

/**
 * The moments a date-time may name: what PostgreSQL's `timestamptz` stores and JavaScript writes back as
 * ISO text with a four-digit year. PostgreSQL has no year 0 (`0000-01-01` is refused, a 500 before this
 * check), and `toISOString` writes years past 9999 as `+010000`, which no client expects.
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether ISO text names a moment in the range every timestamp column holds (a leap second, 23:59:60, names none). */
export function isStorableMoment(text: string): boolean {
  const time = Date.parse(text);
  return Number.isFinite(time) && time >= EARLIEST && time <= LATEST;
}

/**
 * Narrows the `date-time` format of ajv-formats (RFC 3339, offset required) to storable moments, so every
 * date-time a route takes (queries, bodies) answers 422 outside the range, by its field's name.
 * Given as the compiler's `onCreate`, which runs after ajv-formats has added its formats.
 */
export function storableMoments(ajv: Ajv): void {
  const rfc3339 = ajv.formats['date-time'] as FormatDefinition<string>;
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (text: string) => (rfc3339.validate as (t: string) => boolean)(text) && isStorableMoment(text),
    compare: rfc3339.compare,
  });
}
