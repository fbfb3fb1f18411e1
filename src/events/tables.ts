import { boolean, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../db/columns.js';
import { admins } from '../admin-auth/tables.js';
import { realmUsers, realms } from '../realms/tables.js';

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
