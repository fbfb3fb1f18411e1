import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';

/**
 * An endpoint that receives signed POSTs of the events it subscribes to (Standard Webhooks).
 * Its secret is sealed with the secrets key (it must be read back to sign); after a rotation the
 * previous one keeps signing beside the new one until `previous_secret_until`.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  /** Event types it receives. */
  eventTypes: text('event_types').array().notNull(),
  /** The realms whose events it receives; null for every realm (and for events of no realm). */
  realmUids: text('realm_uids').array(),
  active: boolean('active').notNull().default(true),
  secretSealed: text('secret_sealed').notNull(),
  previousSecretSealed: text('previous_secret_sealed'),
  previousSecretUntil: moment('previous_secret_until'),
  /** Since when every attempt has failed; null after a success. */
  failingSince: moment('failing_since'),
  /** Why the server turned it off (a 410 answer, five days of failures); null when an admin did, or when on. */
  disabledReason: text('disabled_reason'),
  disabledAt: moment('disabled_at'),
  ...timestamps,
});

/**
 * The outbox: one message to one endpoint, written in the transaction of the change that caused it,
 * and sent (and retried) by whichever process claims it. `body` is kept as sent, so that every
 * attempt signs and sends the same bytes under the same `webhook-id` (`msg_id`).
 */
export const webhookDeliveries = pgTable('webhook_deliveries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  msgId: text('msg_id').notNull().unique(),
  endpointId: integer('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
  eventType: text('event_type').notNull(),
  body: text('body').notNull(),
  /** `pending`, `succeeded` or `failed`. */
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: moment('next_attempt_at'),
  /** A process sending it holds it until then; after, another may take it over. */
  leaseUntil: moment('lease_until'),
  lastAttemptAt: moment('last_attempt_at'),
  lastStatusCode: integer('last_status_code'),
  createdAt: timestamps.createdAt,
}, (t) => [
  // The senders read each active endpoint's due rows from here: the pending rows of an endpoint that is off (kept until
  // it is on again, however many) are never read.
  index('webhook_deliveries_endpoint_due_idx').on(t.endpointId, t.nextAttemptAt, t.id).where(sql`${t.status} = 'pending'`),
  // The few rows a sender holds (a report clears the lease).
  index('webhook_deliveries_leased_idx').on(t.leaseUntil).where(sql`${t.status} = 'pending' and ${t.leaseUntil} is not null`),
  index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id.desc()),
]);

/** One try of a delivery: what the endpoint answered, and how long it took. */
export const webhookAttempts = pgTable('webhook_attempts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  deliveryId: bigint('delivery_id', { mode: 'number' }).notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
  attemptedAt: moment('attempted_at').notNull(),
  /** `succeeded`, `failed` (an answer outside 2xx), `timeout`, `refused` (a private address) or `error` (no answer). */
  outcome: text('outcome').notNull(),
  statusCode: integer('status_code'),
  durationMs: integer('duration_ms').notNull(),
  error: text('error'),
  /** Some of the answer's body, for the admin reading the attempts. */
  response: text('response'),
}, (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)]);

