import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import { totalCount, type Page } from '../db/paging.js';
import { rowsOf } from '../db/rows.js';
import { deliveryStarted, invalidField, notFound } from '../errors/index.js';
import { segmentListOf } from './audience.js';
import { requireCampaign } from './campaigns.js';
import { layoutOf } from './layout.js';
import type { DELIVERY_STATUSES, DeliveryInput, DeliveryModel } from './schema.js';
import { campaignDeliveries } from '../tables/messaging.js';
import type { WebhookEvent } from '../webhooks/outbox.js';

export type Delivery = typeof campaignDeliveries.$inferSelect;
export type DeliveryBody = Static<typeof DeliveryModel>;

export function deliveryBody(delivery: Delivery): DeliveryBody {
  return {
    id: delivery.id,
    uuid: delivery.uuid,
    campaign_id: delivery.campaignId,
    starts_at: delivery.startsAt.toISOString(),
    ends_at: delivery.endsAt?.toISOString() ?? null,
    sent_count: delivery.sentCount,
    failed_count: delivery.failedCount,
    in_doubt_count: delivery.inDoubtCount,
    reach: delivery.reach,
    status: delivery.status as (typeof DELIVERY_STATUSES)[number],
    rate_per_second: delivery.ratePerSecond,
    segment_list: delivery.segmentList,
  };
}

/** A delivery as an UPDATE returns it, with its realm's uid and its campaign's uuid (spelled out: RETURNING sees the table by name). */
export const withRealmAndCampaign = {
  ...getTableColumns(campaignDeliveries),
  realmUid: sql<string>`(select r.uid from realms r where r.id = campaign_deliveries.realm_id)`,
  campaignUuid: sql<string>`(select c.uuid from campaigns c where c.id = campaign_deliveries.campaign_id)`,
};

/** `delivery.completed`: the delivery as the admin API shows it (with its counts), its campaign's uuid, its type and realm. */
export function deliveryCompletedEvent(realmUid: string, campaignUuid: string, delivery: Delivery): WebhookEvent {
  return {
    type: 'delivery.completed',
    realmUid,
    data: { ...deliveryBody(delivery), campaign_uuid: campaignUuid, type: delivery.type, realm_uid: realmUid },
  };
}

/**
 * Asks for a run of the campaign, at `starts_at` (default now). Its subject, body and audience are
 * copied now; a sender of any process starts it when it is due and writes its recipients then.
 */
export async function createDelivery(ctx: ActingContext, campaignId: number, input: Static<typeof DeliveryInput>): Promise<DeliveryBody> {
  const { campaign, segments } = await requireCampaign(ctx, campaignId, 'messaging.send');
  const now = ctx.clock.now();
  const startsAt = input.starts_at === undefined ? now : new Date(input.starts_at);
  if (Number.isNaN(startsAt.getTime())) throw invalidField('starts_at', 'is not a date-time');
  if (campaign.segmentsEnabled && !segments.length) throw invalidField('base', 'the campaign is sent to segments but names none');
  const layout = await layoutOf(ctx, campaign);
  const [delivery] = await ctx.db.insert(campaignDeliveries).values({
    campaignId, realmId: campaign.realmId, type: campaign.type, subject: campaign.subject, body: campaign.body, layout,
    segmentIds: campaign.segmentsEnabled ? segments.map((s) => s.id) : null,
    segmentList: segmentListOf(campaign.segmentsEnabled ? segments : []),
    status: 'scheduled', startsAt, ratePerSecond: input.rate_per_second ?? null, createdAt: now,
  }).returning();
  return deliveryBody(delivery);
}

async function requireDelivery(ctx: ActingContext, campaignId: number, deliveryId: number, permission: 'messaging.read' | 'messaging.send'): Promise<Delivery> {
  await requireCampaign(ctx, campaignId, permission);
  const [delivery] = await ctx.db.select().from(campaignDeliveries)
    .where(and(eq(campaignDeliveries.id, deliveryId), eq(campaignDeliveries.campaignId, campaignId)));
  if (!delivery) throw notFound('Delivery');
  return delivery;
}

export async function showDelivery(ctx: ActingContext, campaignId: number, deliveryId: number): Promise<DeliveryBody> {
  return deliveryBody(await requireDelivery(ctx, campaignId, deliveryId, 'messaging.read'));
}

/** A page of the campaign's deliveries, newest first. */
export async function listDeliveries(ctx: ActingContext, campaignId: number, page: Page) {
  await requireCampaign(ctx, campaignId, 'messaging.read');
  const mine = eq(campaignDeliveries.campaignId, campaignId);
  const rows = await ctx.db.select({ delivery: campaignDeliveries, total: totalCount }).from(campaignDeliveries).where(mine)
    .orderBy(desc(campaignDeliveries.id)).limit(page.perPage).offset(page.offset);
  const [{ total }] = rows.length || page.offset === 0 ? [{ total: rows[0]?.total ?? 0 }]
    : await ctx.db.select({ total: count() }).from(campaignDeliveries).where(mine);
  return { items: rows.map((r) => deliveryBody(r.delivery)), total };
}

/**
 * Cancels a scheduled delivery. The conditional UPDATE is the one a starting sender races with: of a
 * cancel and a start at the same moment exactly one takes effect (a started delivery answers 409).
 */
export async function cancelDelivery(ctx: ActingContext, campaignId: number, deliveryId: number): Promise<DeliveryBody> {
  await requireDelivery(ctx, campaignId, deliveryId, 'messaging.send');
  const [canceled] = await ctx.db.update(campaignDeliveries).set({ status: 'canceled', endsAt: ctx.clock.now() })
    .where(and(eq(campaignDeliveries.id, deliveryId), eq(campaignDeliveries.status, 'scheduled'))).returning();
  if (!canceled) throw deliveryStarted();
  return deliveryBody(canceled);
}

/**
 * Sends the delivery's in-doubt messages again, explicitly: a recipient whose first copy did leave
 * gets a second (with the same Message-ID, which lets mail clients fold the two together).
 */
export async function resendInDoubt(ctx: ActingContext, campaignId: number, deliveryId: number): Promise<DeliveryBody> {
  await requireDelivery(ctx, campaignId, deliveryId, 'messaging.send');
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction(async (tx) => {
    const [{ n }] = rowsOf<{ n: number }>(await tx.execute(sql`with again as (
        update message_deliveries set status = 'pending', attempts = 0, next_attempt_at = ${now}::timestamptz, worker = null
        where delivery_id = ${deliveryId} and status = 'in_doubt' returning id
      ) select count(*)::int as n from again`));
    if (!n) return;
    await tx.execute(sql`update campaign_deliveries set in_doubt_count = in_doubt_count - ${n},
      status = case when status in ('completed', 'failed') then 'sending' else status end,
      ends_at = case when status in ('completed', 'failed') then null else ends_at end
      where id = ${deliveryId}`);
  });
  return deliveryBody(await requireDelivery(ctx, campaignId, deliveryId, 'messaging.send'));
}
