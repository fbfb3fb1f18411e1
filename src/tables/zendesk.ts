import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../db/columns.js';
import { realms } from './realms.js';

/** A realm's Zendesk integration: its users sign in to the help desk with JWTs signed by the shared secret. */
export const zendeskIntegrations = pgTable('zendesk_integrations', {
  realmId: integer('realm_id').primaryKey().references(() => realms.id, { onDelete: 'cascade' }),
  subdomain: text('subdomain').notNull(),
  keyId: text('key_id').notNull(),
  /** The shared secret sealed with the secrets key (security/sealed.ts); it signs, so it cannot be hashed. */
  sealedSecret: text('sealed_secret').notNull(),
  ...timestamps,
});
