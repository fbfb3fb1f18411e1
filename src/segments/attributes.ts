import type { ValueKind } from '../db/filters.js';

/**
 * What a condition's `attribute` names, resolved against the realm's custom fields:
 * - `user`: a column of the user (`email`, `username`, `first_name`, `last_name`, `active`, `created_at`);
 * - `last_login`: when the user last signed in (`last_login_at`, from the login events);
 * - `custom_field`: `custom_fields.<key>`, typed by the field;
 * - `event_count`, `event_last_at`: `events.<type>.count` and `events.<type>.last_at`;
 * - `submission_status`: `submissions.status`, holding when some submission of the user has a status that passes
 *   the comparison (`eq "pending"`: has a pending submission); `is_set`: has any submission;
 * - `random_bucket`: a stable hash of the user id into 0–99;
 * - `removed_field`: a custom field a saved segment names that no longer exists with a fitting type
 *   (never from a client's input: it is refused there).
 */
export type Attribute =
  | { source: 'user'; column: UserColumn; kind: ValueKind }
  | { source: 'last_login'; kind: 'timestamp' }
  | { source: 'custom_field'; key: string; kind: ValueKind; freeText: boolean }
  | { source: 'event_count'; type: string; kind: 'number' }
  | { source: 'event_last_at'; type: string; kind: 'timestamp' }
  | { source: 'submission_status'; kind: 'text' }
  | { source: 'random_bucket'; kind: 'number' }
  | { source: 'removed_field'; key: string; kind: null };

export type UserColumn = 'email' | 'username' | 'first_name' | 'last_name' | 'active' | 'created_at';

const USER_COLUMNS: Record<UserColumn, ValueKind> = {
  email: 'text',
  username: 'text',
  first_name: 'text',
  last_name: 'text',
  active: 'boolean',
  created_at: 'timestamp',
};

/** The kind of value each custom field type holds. */
const FIELD_KINDS: Record<string, ValueKind> = {
  text: 'text',
  paragraph: 'text',
  dropdown: 'text',
  choice: 'text',
  number: 'number',
  date: 'date',
  checkbox: 'boolean',
};

/**
 * What a user writes freely: such a field may hold anything personal (an address, a phone number). The
 * values of the other types are options the realm defines, or numbers, dates and checkboxes.
 */
const FREE_TEXT_FIELDS = new Set(['text', 'paragraph']);

/** The columns that say who a user is. */
const PERSONAL_COLUMNS = new Set<UserColumn>(['email', 'username', 'first_name', 'last_name']);

/**
 * Whether a condition on this attribute reads personal data: counting matches of `email starts_with "a"`
 * one letter at a time rebuilds the addresses (DESIGN.md "Personal data").
 */
export function isPersonal(attribute: Attribute): boolean {
  if (attribute.source === 'user') return PERSONAL_COLUMNS.has(attribute.column);
  return attribute.source === 'custom_field' && attribute.freeText;
}

/** The login event types whose latest is `last_login_at`. */
export const LOGIN_EVENT_TYPES = ['user_login_log', 'user_otp_login_log'];

const EVENT_TYPE = /^[a-z][a-z0-9_]{2,63}$/;

/** The statuses a submission may have (spec 3): what `submissions.status` compares with `eq`, `neq` and `in`. */
export const SUBMISSION_STATUSES = ['not_started', 'pending', 'completed', 'canceled'];

export interface FieldType {
  key: string;
  type: string;
}

/** The attribute a name means in a realm with these custom fields, or null when it means none. */
export function resolveAttribute(name: string, fields: readonly FieldType[]): Attribute | null {
  if (Object.hasOwn(USER_COLUMNS, name)) return { source: 'user', column: name as UserColumn, kind: USER_COLUMNS[name as UserColumn] };
  if (name === 'last_login_at') return { source: 'last_login', kind: 'timestamp' };
  if (name === 'random_bucket') return { source: 'random_bucket', kind: 'number' };
  if (name === 'submissions.status') return { source: 'submission_status', kind: 'text' };
  if (name.startsWith('custom_fields.')) {
    const key = name.slice('custom_fields.'.length);
    const field = fields.find((f) => f.key === key);
    if (!field || !Object.hasOwn(FIELD_KINDS, field.type)) return null;
    return { source: 'custom_field', key, kind: FIELD_KINDS[field.type], freeText: FREE_TEXT_FIELDS.has(field.type) };
  }
  const event = /^events\.([^.]+)\.(count|last_at)$/.exec(name);
  if (event && EVENT_TYPE.test(event[1])) {
    return event[2] === 'count' ? { source: 'event_count', type: event[1], kind: 'number' } : { source: 'event_last_at', type: event[1], kind: 'timestamp' };
  }
  return null;
}

/** How a filter's text and the summary name an attribute. */
export function attributeLabel(attribute: Attribute): string {
  switch (attribute.source) {
    case 'user': return attribute.column.replace(/_/g, ' ');
    case 'last_login': return 'last login';
    case 'custom_field':
    case 'removed_field': return attribute.key.replace(/_/g, ' ');
    case 'event_count': return `number of ${attribute.type} events`;
    case 'event_last_at': return `last ${attribute.type} event`;
    case 'random_bucket': return 'random bucket';
    case 'submission_status': return 'a submission\'s status';
  }
}
