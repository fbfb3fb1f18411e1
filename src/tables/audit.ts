import { bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { moment } from '../db/columns.js';

/**
 * What an admin did: every admin write, written in the transaction of the write, and every sign-in,
 * failed sign-in and lockout. Who is kept as it was then (the email beside the id), so a record
 * outlives the member. `changed` holds attribute names only, never their values.
 */
export const auditLogs = pgTable('audit_logs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: moment('at').notNull(),
  adminId: integer('admin_id'),
  adminEmail: text('admin_email'),
  /** `session`, `token` (an API application's bearer token) or null (a failed sign-in of no one). */
  credentialKind: text('credential_kind'),
  applicationId: integer('application_id'),
  /** The operation: the route's operation id for writes; `sign_in`, `sign_in_failed`, `locked_out`. */
  operation: text('operation').notNull(),
  resourceType: text('resource_type'),
  resourceId: text('resource_id'),
  /** The resource's name when it was written (its name, full name, email or uid), so that the log reads in words. */
  resourceLabel: text('resource_label'),
  /** The realm the write was in (`/customers/{realm_uid}/...`), its uid and its name then; null outside a realm. */
  realmUid: text('realm_uid'),
  realmName: text('realm_name'),
  address: text('address'),
  changed: text('changed').array().notNull().default([]),
  statusCode: integer('status_code'),
}, (t) => [
  index('audit_logs_at_idx').on(t.at.desc(), t.id.desc()),
  index('audit_logs_admin_idx').on(t.adminId, t.at.desc()),
  index('audit_logs_resource_idx').on(t.resourceType, t.resourceId, t.at.desc()),
  index('audit_logs_realm_idx').on(t.realmUid, t.at.desc()),
]);
