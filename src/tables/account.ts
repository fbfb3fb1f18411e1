import { boolean, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../db/columns.js';

/** The one account of an installation: its name and the upload rules every attachment obeys. */
export const accounts = pgTable('accounts', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  uploadMaxBytes: integer('upload_max_bytes').notNull(),
  allowedExtensions: text('allowed_extensions').array().notNull(),
  /** Every team member needs a second factor: one without it is sent to enrol at the next sign-in. */
  secondFactorRequired: boolean('second_factor_required').notNull().default(false),
  ...timestamps,
});
