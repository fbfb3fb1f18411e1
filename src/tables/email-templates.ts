import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment } from '../db/columns.js';
import type { TemplateContent } from '../email-templates/shipped.js';
import { admins } from './admin-auth.js';
import { realms } from './realms.js';

/**
 * A saved mail template: the account's default of a kind (`realm_id` null) or a realm's override. Its
 * content holds every language; a kind with no row sends the shipped wording (email-templates/shipped.ts).
 */
export const emailTemplates = pgTable('email_templates', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').references(() => realms.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  content: jsonb('content').$type<TemplateContent>().notNull(),
  updatedBy: integer('updated_by').references(() => admins.id, { onDelete: 'set null' }),
  updatedAt: moment('updated_at').notNull(),
}, (t) => [
  uniqueIndex('email_templates_account_key').on(t.kind).where(sql`${t.realmId} is null`),
  uniqueIndex('email_templates_realm_key').on(t.realmId, t.kind).where(sql`${t.realmId} is not null`),
]);

/** Every save of a template (its content) and every reset to the default (content null), newest last. */
export const emailTemplateVersions = pgTable('email_template_versions', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').references(() => realms.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  content: jsonb('content').$type<TemplateContent>(),
  adminId: integer('admin_id').references(() => admins.id, { onDelete: 'set null' }),
  createdAt: moment('created_at').notNull(),
}, (t) => [index('email_template_versions_kind_idx').on(t.kind, t.realmId, t.id)]);
