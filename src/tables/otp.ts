import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { moment } from '../db/columns.js';
import { realms } from './realms.js';

/**
 * The one live one-time code of each subject (a realm user, or an identifier nobody has: see
 * codes.ts), stored as a hash. A new code replaces the row; a code that signs in deletes it.
 */
export const otpCodes = pgTable('otp_codes', {
  /** The attempt counter's subject: `<realm id>:user:<user id>` or `<realm id>:name:<identifier>`. */
  subject: text('subject').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  sentAt: moment('sent_at').notNull(),
  expiresAt: moment('expires_at').notNull(),
});
