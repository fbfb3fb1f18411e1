import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { moment } from '../db/columns.js';
import { realmUsers, realms } from './realms.js';

/** A message in a realm user's inbox (customers GET /notifications), sent by an admin or a campaign. */
export const notifications = pgTable('notifications', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => realmUsers.id, { onDelete: 'cascade' }),
  subject: text('subject').notNull(),
  body: text('body').notNull().default(''),
  /** An absolute http(s) address or a path on the client's site; null for none. */
  url: text('url'),
  sentAt: moment('sent_at').notNull(),
  /** Null while unread. */
  openedAt: moment('opened_at'),
}, (t) => [
  // The inbox order of one user: unread first, then newest first (inbox.ts; DESC is NULLS FIRST there too, PostgreSQL's default).
  index('notifications_inbox_idx').on(t.userId, sql`(${t.openedAt} is not null)`, t.sentAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
]);
