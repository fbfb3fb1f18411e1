/**
 * A plain in-memory reading of a segment filter tree, written apart from the SQL compiler so that the
 * property test compares two independent implementations of the rules in docs/features/segments.md.
 */
export interface MemoryUser {
  id: number;
  email: string;
  username: string | null;
  first_name: string;
  last_name: string;
  active: boolean;
  created_at: Date;
  custom: Record<string, unknown>;
  events: { type: string; at: Date }[];
  submissions?: string[];
}

export type FieldTypes = Record<string, 'text' | 'number' | 'date' | 'boolean'>;

const DAY = 86_400_000;
const LOGIN_TYPES = ['user_login_log', 'user_otp_login_log'];

/** The same stable bucket as the server: high bits of id × 2654435761 mod 2^32, scaled to 0–99. */
export const bucketOf = (id: number) => Number(((BigInt(id) * 2654435761n) % 4294967296n) * 100n / 4294967296n);

type Value = { kind: 'text'; v: string } | { kind: 'number'; v: number } | { kind: 'date'; v: string } | { kind: 'timestamp'; v: Date } | { kind: 'boolean'; v: boolean } | null;

const lastOf = (user: MemoryUser, types: string[]) => {
  const times = user.events.filter((e) => types.includes(e.type)).map((e) => e.at.getTime());
  return times.length ? { kind: 'timestamp' as const, v: new Date(Math.max(...times)) } : null;
};

function valueOf(user: MemoryUser, attribute: string, fields: FieldTypes, withinDays: number | undefined, now: Date): Value {
  switch (attribute) {
    case 'email': return { kind: 'text', v: user.email };
    case 'username': return user.username ? { kind: 'text', v: user.username } : null;
    case 'first_name': return user.first_name ? { kind: 'text', v: user.first_name } : null;
    case 'last_name': return user.last_name ? { kind: 'text', v: user.last_name } : null;
    case 'active': return { kind: 'boolean', v: user.active };
    case 'created_at': return { kind: 'timestamp', v: user.created_at };
    case 'last_login_at': return lastOf(user, LOGIN_TYPES);
    case 'random_bucket': return { kind: 'number', v: bucketOf(user.id) };
  }
  if (attribute.startsWith('custom_fields.')) {
    const key = attribute.slice('custom_fields.'.length);
    const kind = fields[key];
    const v = user.custom[key];
    if (kind === 'text' && typeof v === 'string') return { kind: 'text', v };
    if (kind === 'date' && typeof v === 'string') return { kind: 'date', v };
    if (kind === 'number' && typeof v === 'number') return { kind: 'number', v };
    if (kind === 'boolean' && typeof v === 'boolean') return { kind: 'boolean', v };
    return null;
  }
  const [, type, what] = attribute.split('.');
  if (what === 'last_at') return lastOf(user, [type]);
  const since = withinDays === undefined ? -Infinity : now.getTime() - withinDays * DAY;
  const count = user.events.filter((e) => e.type === type && e.at.getTime() >= since && (withinDays === undefined || e.at <= now)).length;
  return { kind: 'number', v: count };
}

const lower = (s: string) => s.toLowerCase();
const dayStart = (date: string, plus = 0) => Date.parse(`${date}T00:00:00Z`) + plus * DAY;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function compare(value: NonNullable<Value>, operator: string, x: unknown, now: Date): boolean {
  switch (value.kind) {
    case 'text': {
      const v = value.v;
      if (operator === 'eq') return v === x;
      if (operator === 'neq') return v !== x;
      if (operator === 'contains') return lower(v).includes(lower(x as string));
      if (operator === 'starts_with') return lower(v).startsWith(lower(x as string));
      if (operator === 'in') return (x as string[]).includes(v);
      break;
    }
    case 'number': {
      const v = value.v;
      if (operator === 'eq') return v === x;
      if (operator === 'lt') return v < (x as number);
      if (operator === 'gt') return v > (x as number);
      if (operator === 'lte') return v <= (x as number);
      if (operator === 'gte') return v >= (x as number);
      if (operator === 'between') return v >= (x as number[])[0] && v <= (x as number[])[1];
      break;
    }
    case 'boolean': return value.v === x;
    case 'date': {
      const v = value.v;
      if (operator === 'before') return v < (x as string);
      if (operator === 'after') return v > (x as string);
      if (operator === 'on') return v === x;
      if (operator === 'between') return v >= (x as string[])[0] && v <= (x as string[])[1];
      if (operator === 'within_last_days') return v >= dateOf(now.getTime() - (x as number) * DAY) && v <= dateOf(now.getTime());
      break;
    }
    case 'timestamp': {
      const t = value.v.getTime();
      if (operator === 'before') return t < dayStart(x as string);
      if (operator === 'after') return t >= dayStart(x as string, 1);
      if (operator === 'on') return t >= dayStart(x as string) && t < dayStart(x as string, 1);
      if (operator === 'between') return t >= dayStart((x as string[])[0]) && t < dayStart((x as string[])[1], 1);
      if (operator === 'within_last_days') return t >= now.getTime() - (x as number) * DAY && t <= now.getTime();
      break;
    }
  }
  throw new Error(`no ${operator} for ${value.kind}`);
}

/** Whether the user matches the tree (given as the API takes it). */
export function matches(tree: unknown, user: MemoryUser, fields: FieldTypes, now: Date): boolean {
  const node = tree as Record<string, unknown>;
  if ('all' in node) return (node.all as unknown[]).every((c) => matches(c, user, fields, now));
  if ('any' in node) return (node.any as unknown[]).some((c) => matches(c, user, fields, now));
  if ('not' in node) return !matches(node.not, user, fields, now);
  const attribute = node.attribute as string;
  const operator = node.operator as string;
  if (attribute === 'submissions.status') {
    const statuses = user.submissions ?? [];
    if (operator === 'is_set') return statuses.length > 0;
    if (operator === 'is_not_set') return statuses.length === 0;
    return statuses.some((s) => compare({ kind: 'text', v: s }, operator, node.value, now));
  }
  const value = valueOf(user, attribute, fields, node.within_last_days as number | undefined, now);
  if (operator === 'is_set') return value !== null;
  if (operator === 'is_not_set') return value === null;
  return value !== null && compare(value, operator, node.value, now);
}
