import { AppError, type FieldError } from './app-error.js';
import { declare } from './registry.js';

const INVALID = declare({ code: 'ATR_INVALID', kind: 'invalid', description: 'The input is not valid: `details` names each attribute at fault' });

/** A 422 naming each invalid attribute, Rails style: `{errors: ["Email has already been taken"], details: [...]}`. */
export function invalid(details: FieldError[]): AppError {
  // Rails style: errors of the record as a whole are filed under `base` and read without a field name.
  const messages = details.flatMap((d) => d.messages.map((m) => (d.field === 'base' ? capitalize(m) : `${humanize(d.field)} ${m}`)));
  return new AppError(INVALID, messages, { details });
}

export function invalidField(field: string, message: string): AppError {
  return invalid([{ field, messages: [message] }]);
}

/** Collects field errors while an operation checks its input, then throws them all at once. */
export class FieldErrors {
  private readonly list: FieldError[] = [];

  add(field: string, message: string): void {
    const found = this.list.find((d) => d.field === field);
    if (found) found.messages.push(message);
    else this.list.push({ field, messages: [message] });
  }

  get all(): FieldError[] {
    return this.list;
  }

  throwIfAny(): void {
    if (this.list.length) throw invalid(this.list);
  }
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const humanize = (field: string) => capitalize(field.replace(/[._]/g, ' ').trim());
