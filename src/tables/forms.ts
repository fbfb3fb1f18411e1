import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import { realmUsers, realms } from './realms.js';

/** One field of a form as stored (forms/schema.ts checks it): its answers are keyed by `name`. */
export interface StoredField {
  name: string;
  type: 'text' | 'long_text' | 'email' | 'number' | 'date' | 'single_choice' | 'multiple_choice' | 'checkbox' | 'consent' | 'file';
  required: boolean;
  labels: Record<string, string>;
  help?: Record<string, string>;
  options?: { value: string; labels: Record<string, string> }[];
  min?: number;
  max?: number;
  min_length?: number;
  max_length?: number;
  pattern?: string;
  show_if?: { field: string; value?: string };
}

export interface StoredStep {
  labels: Record<string, string>;
  fields: string[];
}

/**
 * A form built by an admin: answered on its hosted page, through the content catalog (public forms) or the
 * customers API (forms of a realm's users). With `max_responses`, a response counts the accepted ones under the
 * form row's lock, so that the maximum holds under parallel posts; without, responses take no lock at all.
 */
export const forms = pgTable('forms', {
  id: serial('id').primaryKey(),
  uid: text('uid').notNull(),
  name: text('name').notNull(),
  realmId: integer('realm_id').references(() => realms.id, { onDelete: 'cascade' }),
  access: text('access').$type<'public' | 'realm_users'>().notNull(),
  defaultLocale: text('default_locale').notNull(),
  locales: text('locales').array().notNull(),
  fields: jsonb('fields').$type<StoredField[]>().notNull(),
  steps: jsonb('steps').$type<StoredStep[]>().notNull(),
  successMessage: jsonb('success_message').$type<Record<string, string>>().notNull(),
  redirectUrl: text('redirect_url'),
  opensAt: moment('opens_at'),
  closesAt: moment('closes_at'),
  maxResponses: integer('max_responses'),
  notifyEmails: text('notify_emails').array().notNull(),
  /** Whether the respondent gets a confirmation mail, and to which email field's answer (null: the signed-in user's address). */
  confirmation: boolean('confirmation').notNull().default(false),
  confirmationField: text('confirmation_field'),
  minFillSeconds: integer('min_fill_seconds').notNull().default(3),
  /** Submissions per client address and hour; 0 turns the limit off. */
  rateLimitPerHour: integer('rate_limit_per_hour').notNull().default(10),
  active: boolean('active').notNull().default(true),
  ...timestamps,
}, (t) => [uniqueIndex('forms_uid_key').on(t.uid), index('forms_realm_idx').on(t.realmId)]);

export interface StoredFile {
  key: string;
  name: string;
  size: number;
  content_type: string;
}

/** A response: `received`, or `spam` with the reason it was caught (kept, never notified). */
export const formResponses = pgTable('form_responses', {
  id: serial('id').primaryKey(),
  formId: integer('form_id').notNull().references(() => forms.id, { onDelete: 'cascade' }),
  status: text('status').$type<'received' | 'spam'>().notNull(),
  spamReason: text('spam_reason'),
  /** Answers by field name; only the fields that were shown (a hidden conditional field is dropped). */
  answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
  files: jsonb('files').$type<Record<string, StoredFile>>().notNull().default({}),
  /** The respondent's address (the confirmation field's answer, else the first email field's, else the user's), lower case. */
  email: text('email'),
  userId: integer('user_id').references(() => realmUsers.id, { onDelete: 'cascade' }),
  locale: text('locale').notNull(),
  submittedAt: moment('submitted_at').notNull(),
}, (t) => [
  index('form_responses_form_idx').on(t.formId, t.submittedAt, t.id),
  // A form with a maximum counts its accepted responses on each view and post: spam, however much, is not read.
  index('form_responses_received_idx').on(t.formId).where(sql`${t.status} = 'received'`),
  index('form_responses_email_idx').on(t.email),
  // Most responses have no user: only those that do are indexed (the erasure by user reads it).
  index('form_responses_user_idx').on(t.userId).where(sql`${t.userId} is not null`),
]);

/**
 * The nonces of form tokens already used: a second use of one is a replay (spam). No foreign key to the
 * form: its check would lock the form's row under every response; a deleted form's nonces go with the
 * expired ones (maintenance/expired-rows.ts).
 */
export const formTokenUses = pgTable('form_token_uses', {
  nonce: text('nonce').primaryKey(),
  formId: integer('form_id').notNull(),
  usedAt: moment('used_at').notNull(),
}, (t) => [index('form_token_uses_used_idx').on(t.usedAt)]);

export type FormRow = typeof forms.$inferSelect;
export type FormResponseRow = typeof formResponses.$inferSelect;
