import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import type { CampaignLayout } from '../messaging/layout.js';
import { notifications } from './notifications.js';
import { realmUsers, realms } from './realms.js';
import { segments } from './segments.js';

/** A mailing or notification campaign of a realm (spec 2.3): its Liquid subject and body, and whom it goes to. */
export const campaigns = pgTable('campaigns', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** `mailing` or `notification`. */
  type: text('type').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  segmentsEnabled: boolean('segments_enabled').notNull().default(false),
  /** A mailing's HTML goes inside the realm's `campaign_layout` email template. */
  useLayout: boolean('use_layout').notNull().default(false),
  ...timestamps,
}, (t) => [index('campaigns_realm_idx').on(t.realmId, t.updatedAt.desc(), t.id.desc())]);

/** The segments a campaign is sent to (when `segments_enabled`), in the order given. */
export const campaignSegments = pgTable('campaign_segments', {
  campaignId: integer('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  segmentId: integer('segment_id').notNull().references(() => segments.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
}, (t) => [primaryKey({ columns: [t.campaignId, t.segmentId] }), index('campaign_segments_segment_idx').on(t.segmentId)]);

/**
 * One run of a campaign (spec 2.4). The subject, body and audience are copied when it is made, so an
 * edit of the campaign changes no run already asked for. Recipients are written as message rows in
 * batches, `recipients_cursor` (the last user id written) moving in the same transaction as each batch.
 */
export const campaignDeliveries = pgTable('campaign_deliveries', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  campaignId: integer('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  /** A mailing's layout as it was when the run was asked for (every language, rendered); null: none. */
  layout: jsonb('layout').$type<CampaignLayout>(),
  /** The audience: null for the whole realm, else these segments' users. */
  segmentIds: integer('segment_ids').array(),
  segmentList: text('segment_list').notNull(),
  /** `scheduled`, `sending`, `completed`, `failed` or `canceled`. */
  status: text('status').notNull(),
  startsAt: moment('starts_at').notNull(),
  endsAt: moment('ends_at'),
  /** Messages per second across every process; null for as fast as the mail server takes them. */
  ratePerSecond: integer('rate_per_second'),
  /** With a rate: when the next batch may be claimed. */
  nextClaimAt: moment('next_claim_at'),
  recipientsCursor: integer('recipients_cursor').notNull().default(0),
  recipientsDone: boolean('recipients_done').notNull().default(false),
  /** -1 until every recipient is written. */
  reach: integer('reach').notNull().default(-1),
  sentCount: integer('sent_count').notNull().default(0),
  failedCount: integer('failed_count').notNull().default(0),
  inDoubtCount: integer('in_doubt_count').notNull().default(0),
  createdAt: timestamps.createdAt,
}, (t) => [
  index('campaign_deliveries_campaign_idx').on(t.campaignId, t.id),
  index('campaign_deliveries_due_idx').on(t.status, t.startsAt),
]);

/**
 * One message of a delivery to one user (spec 2.5), unique per delivery and user. `pending` rows are
 * claimed by a worker (`sending`, with the worker and a lease), then become `sent` or, after retries,
 * `failed` with the reason; a `sending` row whose lease ended is `in_doubt` and is never sent again
 * unless an admin asks.
 */
export const messageDeliveries = pgTable('message_deliveries', {
  id: serial('id').primaryKey(),
  deliveryId: integer('delivery_id').notNull().references(() => campaignDeliveries.id, { onDelete: 'cascade' }),
  campaignId: integer('campaign_id').notNull().references(() => campaigns.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => realmUsers.id, { onDelete: 'cascade' }),
  /** `pending`, `sending`, `sent`, `failed` or `in_doubt`. */
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: moment('next_attempt_at').notNull(),
  worker: text('worker'),
  leaseUntil: moment('lease_until'),
  sentAt: moment('sent_at'),
  /** The first time the tracking pixel was fetched (mailings). */
  openedAt: moment('opened_at'),
  failureReason: text('failure_reason'),
  /** The inbox notification a notification campaign made; its `opened_at` is this message's. */
  notificationId: integer('notification_id').references(() => notifications.id, { onDelete: 'set null' }),
}, (t) => [
  uniqueIndex('message_deliveries_recipient_idx').on(t.deliveryId, t.userId),
  index('message_deliveries_pending_idx').on(t.deliveryId, t.id).where(sql`${t.status} = 'pending'`),
  index('message_deliveries_leased_idx').on(t.leaseUntil, t.deliveryId).where(sql`${t.status} = 'sending'`),
  index('message_deliveries_campaign_idx').on(t.campaignId, t.id),
  // A deleted user or notification (with their realm, say) finds its messages by these.
  index('message_deliveries_user_idx').on(t.userId),
  index('message_deliveries_notification_idx').on(t.notificationId).where(sql`${t.notificationId} is not null`),
]);

/** Users who asked for no more campaign mail (the unsubscribe link or one-click header). */
export const messagingUnsubscribes = pgTable('messaging_unsubscribes', {
  userId: integer('user_id').primaryKey().references(() => realmUsers.id, { onDelete: 'cascade' }),
  createdAt: timestamps.createdAt,
});
