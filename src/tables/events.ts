import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import { admins } from './admin-auth.js';
import { realmUsers, realms } from './realms.js';

/**
 * The append-only log of business events of a realm's users (spec 2.8, 6): `<category>_<action>` types,
 * titles translated when shown.
 */
export const businessEvents = pgTable('business_events', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  userId: integer('user_id').references(() => realmUsers.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  /** Whether it happened while an admin impersonated the user; kept when that admin is deleted. */
  impersonated: boolean('impersonated').notNull().default(false),
  impersonatorId: integer('impersonator_id').references(() => admins.id, { onDelete: 'set null' }),
  properties: jsonb('properties').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamps.createdAt,
}, (t) => [
  // A user's page (GET /events) is read from this index alone: its key holds every column the page shows.
  index('business_events_user_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.impersonated, t.type),
  index('business_events_realm_idx').on(t.realmId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  // Segment conditions counting a type's recent events read the span of the realm's events of that type from this index alone.
  index('business_events_realm_type_idx').on(t.realmId, t.type, t.createdAt, t.userId),
]);

/**
 * How many events each user has, kept with every event recorded (events are never changed or deleted
 * alone): `meta` of GET /events without counting the user's history, and the way to read a page past
 * the middle from the other end.
 */
export const businessEventCounts = pgTable('business_event_counts', {
  userId: integer('user_id').primaryKey().references(() => realmUsers.id, { onDelete: 'cascade' }),
  total: integer('total').notNull().default(0),
  impersonated: integer('impersonated').notNull().default(0),
});

/**
 * How many events of each type each user has and when the last one happened, kept with every event
 * recorded: segment conditions on `events.<type>.count` and `.last_at` read these instead of the log.
 */
export const businessEventTypeCounts = pgTable('business_event_type_counts', {
  userId: integer('user_id').notNull().references(() => realmUsers.id, { onDelete: 'cascade' }),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  count: integer('count').notNull().default(0),
  lastAt: moment('last_at').notNull(),
}, (t) => [
  primaryKey({ columns: [t.userId, t.type] }),
  index('business_event_type_counts_count_idx').on(t.realmId, t.type, t.count, t.userId),
  index('business_event_type_counts_last_idx').on(t.realmId, t.type, t.lastAt, t.userId),
]);
