import { and, asc, desc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { notFound, webhookDeliveryInFlight, webhookEndpointInactive } from '../errors/index.js';
import { requireEndpoint } from './endpoints.js';
import { emitWebhookEventTo, wakeSenders } from './outbox.js';
import type { WebhookDeliveryModel } from './schema.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../tables/webhooks.js';

type DeliveryBody = Static<typeof WebhookDeliveryModel>;
type Delivery = typeof webhookDeliveries.$inferSelect;
type Attempt = typeof webhookAttempts.$inferSelect;

function deliveryBody(delivery: Delivery, attempts: Attempt[]): DeliveryBody {
  return {
    id: delivery.id,
    webhook_id: delivery.msgId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts_count: delivery.attempts,
    next_attempt_at: delivery.status === 'pending' ? delivery.nextAttemptAt?.toISOString() ?? null : null,
    last_attempt_at: delivery.lastAttemptAt?.toISOString() ?? null,
    last_status_code: delivery.lastStatusCode,
    created_at: delivery.createdAt.toISOString(),
    attempts: attempts.map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      outcome: a.outcome,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      response: a.response,
    })),
  };
}

/** An endpoint's deliveries, newest first, each with its attempts. */
export async function listDeliveries(ctx: ActingContext, endpointId: number, page: Page, status: string | undefined): Promise<{ items: DeliveryBody[]; total: number }> {
  ctx.actor.assertHolds('webhooks.read');
  await requireEndpoint(ctx, endpointId);
  // An unknown status selects nothing, as a well-formed filter no row matches would.
  const where = and(eq(webhookDeliveries.endpointId, endpointId), status !== undefined ? eq(webhookDeliveries.status, status) : undefined);
  const rows = await ctx.db.select({ delivery: webhookDeliveries, total: totalCount }).from(webhookDeliveries).where(where)
    .orderBy(desc(webhookDeliveries.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, webhookDeliveries, where);
  const ids = rows.map((r) => r.delivery.id);
  const attempts = ids.length
    ? await ctx.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(asc(webhookAttempts.id))
    : [];
  const byDelivery = new Map<number, Attempt[]>();
  for (const attempt of attempts) byDelivery.set(attempt.deliveryId, [...byDelivery.get(attempt.deliveryId) ?? [], attempt]);
  return { items: rows.map((r) => deliveryBody(r.delivery, byDelivery.get(r.delivery.id) ?? [])), total };
}

/** The event type of a test delivery: sent to one endpoint on an admin's demand, whatever it subscribes to. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * A test event to one active endpoint, through the outbox like any event (signed, retried on the usual
 * schedule, listed among its deliveries), whatever types it subscribes to. 409 for an inactive endpoint.
 */
export async function sendTestDelivery(ctx: ActingContext, endpointId: number): Promise<DeliveryBody> {
  ctx.actor.assertHolds('webhooks.manage');
  const endpoint = await requireEndpoint(ctx, endpointId);
  if (!endpoint.active) throw webhookEndpointInactive();
  const id = await emitWebhookEventTo(ctx, ctx.db, endpoint.id, {
    type: TEST_EVENT_TYPE, data: { webhook_endpoint_id: endpoint.id, message: 'A test event sent from the administration' },
  });
  // Deleted since it was found: gone, as it is to everyone from now on.
  if (id === undefined) throw notFound('Webhook endpoint');
  const [delivery] = await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return deliveryBody(delivery, []);
}

/**
 * Sends a delivery again as soon as a sender is free, under the same webhook-id, whatever its status.
 * One failing again after its schedule ran out is failed again at once; a pending one keeps its schedule.
 */
export async function retryDelivery(ctx: ActingContext, id: number): Promise<DeliveryBody> {
  ctx.actor.assertHolds('webhooks.manage');
  const now = ctx.clock.now();
  const [found] = await ctx.db.select({ active: webhookEndpoints.active }).from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId)).where(eq(webhookDeliveries.id, id));
  if (!found) throw notFound('Webhook delivery');
  if (!found.active) throw webhookEndpointInactive();
  const [delivery] = await ctx.db.update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: now, leaseUntil: null })
    .where(and(eq(webhookDeliveries.id, id), or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now)))).returning();
  // A sender holds it: resending now could send it twice at once.
  if (!delivery) throw webhookDeliveryInFlight();
  await wakeSenders(ctx);
  const attempts = await ctx.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(asc(webhookAttempts.id));
  return deliveryBody(delivery, attempts);
}
