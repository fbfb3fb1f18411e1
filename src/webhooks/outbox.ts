import { sql, type SQL } from 'drizzle-orm';
import type { Caches } from '../caches.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { rowsOf } from '../db/rows.js';
import { subscribedTypes } from './subscribers.js';
import { webhookDeliveries, webhookEndpoints } from '../tables/webhooks.js';

export interface WebhookEvent {
  /** A business event type, or an admin-side type such as `realm_user.updated`. */
  type: string;
  /** The realm the event is of; null for account-wide events (only endpoints of every realm get those). */
  realmUid: string | null;
  data: Record<string, unknown>;
}

/**
 * Puts an event in the outbox: one delivery row per active endpoint that subscribes to its type and
 * realm. Call it with the transaction of the change that caused it, so the two commit together or
 * not at all; the senders pick the rows up after the commit. Given the process's `caches` (ctx.caches),
 * an event of a type no active endpoint subscribes to costs no query (see subscribers.ts).
 */
export async function emitWebhookEvent(db: Db, clock: Clock, event: WebhookEvent, caches?: Caches): Promise<void> {
  if (caches && !(await subscribedTypes(db, clock, caches)).has(event.type)) return;
  const realmMatches = event.realmUid === null
    ? sql`${webhookEndpoints.realmUids} is null`
    : sql`(${webhookEndpoints.realmUids} is null or ${event.realmUid} = any(${webhookEndpoints.realmUids}))`;
  await db.execute(deliveriesTo(sql`${webhookEndpoints.active} and ${event.type} = any(${webhookEndpoints.eventTypes}) and ${realmMatches}`, event, clock.now()));
}

/**
 * An event for one endpoint alone, whatever it subscribes to (an admin's test), through the same outbox;
 * answers the delivery's id (none when no endpoint has that id).
 */
export async function emitWebhookEventTo(db: Db, clock: Clock, endpointId: number, event: Omit<WebhookEvent, 'realmUid'>): Promise<number | undefined> {
  const [row] = rowsOf<{ id: number }>(await db.execute(sql`${deliveriesTo(sql`${webhookEndpoints.id} = ${endpointId}`, event, clock.now())} returning id`));
  return row?.id;
}

/** One delivery row of the event, `{type, timestamp, data}` with a webhook-id of its own, per endpoint `endpoints` selects. */
function deliveriesTo(endpoints: SQL, event: Omit<WebhookEvent, 'realmUid'>, now: Date): SQL {
  const body = JSON.stringify({ type: event.type, timestamp: now.toISOString(), data: event.data });
  return sql`
    insert into ${webhookDeliveries} (msg_id, endpoint_id, event_type, body, next_attempt_at, created_at)
    select 'msg_' || replace(gen_random_uuid()::text, '-', ''), ${webhookEndpoints.id}, ${event.type}, ${body}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from ${webhookEndpoints}
    where ${endpoints}`;
}
