import { index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../db/columns.js';
import { realmUsers, realms } from '../realms/tables.js';

/** A business event of a realm user (spec 2.8, 6): `<category>_<action>` types, titles translated when shown. */
export const businessEvents = pgTable('business_events', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  userId: integer('user_id').references(() => realmUsers.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  /** Set when the event happened while an admin impersonated the user. */
  impersonatorId: integer('impersonator_id'),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamps.createdAt,
}, (t) => [index('business_events_user_idx').on(t.userId, t.createdAt), index('business_events_realm_idx').on(t.realmId, t.createdAt)]);
