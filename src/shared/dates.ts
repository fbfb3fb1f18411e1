import { invalidField } from '../errors/index.js';

/**
 * A period filter's bound: 422 naming the field for a date-time the schema let through that is still
 * no moment (a leap second, 23:59:60).
 */
export function momentOf(field: string, text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const moment = new Date(text);
  if (Number.isNaN(moment.getTime())) throw invalidField(field, 'is not a valid date-time');
  return moment;
}
