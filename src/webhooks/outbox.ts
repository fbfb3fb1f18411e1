import { sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { afterCommit } from '../db/request-transaction.js';
import { rowsOf } from '../db/rows.js';
import { wakeWorkers } from '../queue/signal.js';
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
 * What writing to the outbox needs of the context: the time, the senders to wake, and the process's caches, with
 * which an event of a type no active endpoint subscribes to costs no query (see subscribers.ts).
 */
export type OutboxContext = Pick<Context, 'clock' | 'database'> & Partial<Pick<Context, 'caches'>>;

/**
 * Puts an event in the outbox: one delivery row per active endpoint that subscribes to its type and
 * realm. Call it with the transaction of the change that caused it (`db`), so the two commit together or
 * not at all. The senders of every process are woken after the request's transaction commits; in a transaction of
 * the caller's own, the notice may come before the commit, and a sender then finds the rows at its next look
 * (WEBHOOKS_POLL_MS later at most).
 */
export async function emitWebhookEvent(ctx: OutboxContext, db: Db, event: WebhookEvent): Promise<void> {
  if (ctx.caches && !(await subscribedTypes(db, ctx.clock, ctx.caches)).has(event.type)) return;
  const realmMatches = event.realmUid === null
    ? sql`${webhookEndpoints.realmUids} is null`
    : sql`(${webhookEndpoints.realmUids} is null or ${event.realmUid} = any(${webhookEndpoints.realmUids}))`;
  const written = await db.execute(sql`${deliveriesTo(sql`${webhookEndpoints.active} and ${event.type} = any(${webhookEndpoints.eventTypes}) and ${realmMatches}`, event, ctx.clock.now())} returning id`);
  if (rowsOf(written).length) await wakeSenders(ctx);
}

/**
 * An event for one endpoint alone, whatever it subscribes to (an admin's test), through the same outbox;
 * answers the delivery's id (none when no endpoint has that id).
 */
export async function emitWebhookEventTo(ctx: OutboxContext, db: Db, endpointId: number, event: Omit<WebhookEvent, 'realmUid'>): Promise<number | undefined> {
  const [row] = rowsOf<{ id: number }>(await db.execute(sql`${deliveriesTo(sql`${webhookEndpoints.id} = ${endpointId}`, event, ctx.clock.now())} returning id`));
  if (row) await wakeSenders(ctx);
  return row?.id;
}

/** The work queue name the webhook senders sleep on. */
export const WEBHOOK_QUEUE = 'webhooks';

/** Wakes the webhook senders of every process once the request's transaction commits (at once outside one). */
export const wakeSenders = (ctx: Pick<Context, 'database'>) => afterCommit(() => wakeWorkers(ctx.database, WEBHOOK_QUEUE));

/** One delivery row of the event, `{type, timestamp, data}` with a webhook-id of its own, per endpoint `endpoints` selects. */
function deliveriesTo(endpoints: SQL, event: Omit<WebhookEvent, 'realmUid'>, now: Date): SQL {
  const body = JSON.stringify({ type: event.type, timestamp: now.toISOString(), data: event.data });
  return sql`
    insert into ${webhookDeliveries} (msg_id, endpoint_id, event_type, body, next_attempt_at, created_at)
    select 'msg_' || replace(gen_random_uuid()::text, '-', ''), ${webhookEndpoints.id}, ${event.type}, ${body}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from ${webhookEndpoints}
    where ${endpoints}`;
}
