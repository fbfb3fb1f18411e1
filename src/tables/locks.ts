import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment } from '../db/columns.js';

/**
 * An edit lease on a shared item (a site's layout, page or menu, a content entry): one row per item,
 * live until `expires_at`, taken in one statement (insert, or take over an expired row).
 */
export const editLocks = pgTable('edit_locks', {
  id: serial('id').primaryKey(),
  /** What kind of item: `site_template`, `site_file`, `layout_page`, `menu`, `content_entry`. */
  resourceType: text('resource_type').notNull(),
  /** The item's id (or uuid) as text. */
  resourceId: text('resource_id').notNull(),
  /** The site or space uid the item belongs to: whose permissions reach the lock. */
  scope: text('scope').notNull(),
  holderId: integer('holder_id').notNull(),
  holderName: text('holder_name').notNull(),
  acquiredAt: moment('acquired_at').notNull(),
  expiresAt: moment('expires_at').notNull(),
  /** Who held it before a take-over, so that they learn it on their next heartbeat or save. */
  takenFromId: integer('taken_from_id'),
  takenByName: text('taken_by_name'),
}, (t) => [uniqueIndex('edit_locks_resource_key').on(t.resourceType, t.resourceId), index('edit_locks_expiry_idx').on(t.expiresAt)]);
