import type { ActingContext } from '../admin-auth/principal.js';
import { FieldErrors } from '../errors/index.js';
import type { Realm } from '../realms/realms.js';
import type { RealmUser } from '../realms/users.js';
import { isBuiltInEventType } from '../shared/event-catalog.js';
import { recordEvent } from './events.js';
import { adminEventBody, type AdminEventBody } from './log.js';
import { MAX_PROPERTIES_BYTES, MAX_PROPERTIES_DEPTH } from './schema.js';

/** A UTF-16 surrogate without its pair (in a `u` pattern, paired ones read as one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Why `properties` cannot be stored, or null: nested deeper than allowed, text that is not well-formed
 * Unicode (PostgreSQL's jsonb refuses a lone surrogate), or too long as compact JSON. The walk stops
 * one level past the limit, so a body nested thousands deep costs no deeper recursion.
 */
function propertiesProblem(properties: Record<string, unknown>): string | null {
  const pending: { value: unknown; depth: number }[] = [{ value: properties, depth: 1 }];
  while (pending.length) {
    const { value, depth } = pending.pop()!;
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) return 'must hold well-formed Unicode text';
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_PROPERTIES_DEPTH) return `must not nest objects and arrays more than ${MAX_PROPERTIES_DEPTH} deep`;
    for (const [key, inner] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return 'must hold well-formed Unicode text';
      pending.push({ value: inner, depth: depth + 1 });
    }
  }
  if (Buffer.byteLength(JSON.stringify(properties)) > MAX_PROPERTIES_BYTES) return `is too long (at most ${MAX_PROPERTIES_BYTES} bytes as JSON)`;
  return null;
}

/** An event of a custom type, recorded by the admin API for a user of the realm (never as impersonated). */
export async function recordCustomEvent(
  ctx: ActingContext, realm: Realm, user: Pick<RealmUser, 'id' | 'email'>, input: { type: string; properties?: Record<string, unknown> },
): Promise<AdminEventBody> {
  ctx.actor.assertHolds('realm.activity.write', realm.uid);
  const errors = new FieldErrors();
  if (isBuiltInEventType(input.type)) errors.add('type', 'is a built-in type, recorded only where it happens: choose another name');
  const properties = input.properties ?? {};
  const problem = propertiesProblem(properties);
  if (problem) errors.add('properties', problem);
  errors.throwIfAny();
  const event = await recordEvent(ctx, { realmId: realm.id, userId: user.id, type: input.type, properties });
  return adminEventBody(event, user.email);
}
