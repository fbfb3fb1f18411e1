import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import { realms } from './realms.js';

/**
 * A named filter tree over a realm's users (spec 2.2). `matches_count` is kept by a background refresh
 * (`counted_at` says when); a temporary segment (apply_filters, count_matches) is left out of lists and
 * removed once `expires_at` has passed.
 */
export const segments = pgTable('segments', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  filters: jsonb('filters').$type<unknown>().notNull(),
  filtersSummary: text('filters_summary').notNull(),
  matchesCount: integer('matches_count').notNull().default(0),
  countedAt: moment('counted_at').notNull(),
  temporary: boolean('temporary').notNull().default(false),
  expiresAt: moment('expires_at'),
  ...timestamps,
}, (t) => [
  uniqueIndex('segments_uuid_key').on(t.uuid),
  index('segments_realm_idx').on(t.realmId),
  index('segments_listed_idx').on(t.updatedAt).where(sql`not ${t.temporary}`),
  index('segments_expiry_idx').on(t.expiresAt).where(sql`${t.temporary}`),
]);
