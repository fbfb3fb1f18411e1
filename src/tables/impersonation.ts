import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import { admins } from './admin-auth.js';
import { realmUsers, realms } from './realms.js';

/** A one-time sign-in link an admin made to open a session as a realm user; only the token's hash is kept. */
export const impersonationLinks = pgTable('impersonation_links', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => realmUsers.id, { onDelete: 'cascade' }),
  adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  expiresAt: moment('expires_at').notNull(),
  usedAt: moment('used_at'),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('impersonation_links_token_key').on(t.tokenHash), index('impersonation_links_user_idx').on(t.userId)]);
