import { sql } from 'drizzle-orm';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import { EVENT_TYPES, isBuiltInEventType } from '../shared/event-catalog.js';
import { invalidField } from '../errors/index.js';

/**
 * The admin-side event types (notes/events.md), declared by the modules that emit them (`webhookEvents`):
 * each type with what its `data` holds.
 */
export type AdminEventTypes = Readonly<Record<string, string>>;

export interface EventTypeBody {
  type: string;
  kind: 'admin' | 'business' | 'custom';
  description: string;
  /** The realms where a custom type has been recorded; null for the types of every realm. */
  realm_uids: string[] | null;
}

/**
 * Whether events of this type carry a realm user's data: the user events, and every business or custom
 * event (its `data` names the user by email). Submissions, deliveries and entries carry ids only.
 */
export const carriesPersonalData = (adminTypes: AdminEventTypes, type: string) => type.startsWith('realm_user.') || !Object.hasOwn(adminTypes, type);

/**
 * Custom business types (of `types` when given) with the realms that have recorded them, read from the
 * per-user type counts by index probes: the whole list skips through the (realm, type) index one type at
 * a time, so a realm of a million users with a handful of types costs a handful of probes.
 */
async function customTypes(ctx: Context, types?: string[]): Promise<Map<string, string[]>> {
  const rows = rowsOf<{ type: string; uid: string }>(await ctx.db.execute(types
    ? sql`select t.type, r.uid from realms r cross join (values ${sql.join(types.map((t) => sql`(${t}::text)`), sql`, `)}) t(type)
        where exists (select 1 from business_event_type_counts c where c.realm_id = r.id and c.type = t.type)
        order by t.type, r.uid`
    : sql`select c.type, r.uid from realms r
        join lateral (
          with recursive found(type) as (
            select min(type) from business_event_type_counts where realm_id = r.id
            union all
            select (select min(type) from business_event_type_counts where realm_id = r.id and type > found.type) from found where found.type is not null
          ) select type from found where type is not null
        ) c on true
        order by c.type, r.uid`));
  const byType = new Map<string, string[]>();
  for (const row of rows) {
    if (isBuiltInEventType(row.type)) continue;
    byType.set(row.type, [...byType.get(row.type) ?? [], row.uid]);
  }
  return byType;
}

/** Every type a webhook may subscribe to: the admin-side ones, the built-in business ones, and each realm's custom ones. */
export async function listEventTypes(ctx: ActingContext, adminTypes: AdminEventTypes): Promise<EventTypeBody[]> {
  ctx.actor.assertHolds('webhooks.read');
  const custom = await customTypes(ctx);
  return [
    ...Object.entries(adminTypes).map(([type, description]) => ({ type, kind: 'admin' as const, description, realm_uids: null })),
    ...Object.entries(EVENT_TYPES).map(([type, title]) => ({ type, kind: 'business' as const, description: `Business event: ${title.en}`, realm_uids: null })),
    ...[...custom].map(([type, uids]) => ({ type, kind: 'custom' as const, description: 'A custom business event type recorded in these realms', realm_uids: uids })),
  ];
}

export const MAX_EVENT_TYPES = 200;

/**
 * The subscribed types, checked against the listing: a custom type can be chosen once a realm has
 * recorded an event of it. The first unknown one is named in the 422.
 */
export async function checkEventTypes(ctx: Context, adminTypes: AdminEventTypes, raw: string[]): Promise<string[]> {
  const types = [...new Set(raw.map((t) => t.trim()))];
  if (!types.length) throw invalidField('event_types', "can't be empty");
  if (types.length > MAX_EVENT_TYPES) throw invalidField('event_types', `has too many types (maximum is ${MAX_EVENT_TYPES})`);
  const others = types.filter((t) => !Object.hasOwn(adminTypes, t) && !isBuiltInEventType(t));
  if (others.length) {
    const custom = await customTypes(ctx, others);
    const unknown = others.find((t) => !custom.has(t));
    if (unknown !== undefined) {
      throw invalidField('event_types', `contains ${JSON.stringify(unknown.slice(0, 100))}, which is not an event type (see GET /webhooks/event_types)`);
    }
  }
  return types;
}
