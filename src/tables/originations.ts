import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import { admins } from './admin-auth.js';
import { realmUsers, realms } from './realms.js';

/** A guided application process of a realm (open an account, apply for a loan): steps of ordered tasks. */
export const originations = pgTable('originations', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** Days a submission has from its start; null for no deadline. */
  deadlineDays: integer('deadline_days'),
  ...timestamps,
}, (t) => [uniqueIndex('originations_uuid_key').on(t.uuid), index('originations_realm_idx').on(t.realmId)]);

/**
 * A task of an origination. Steps are only a name and a place, so they live on their tasks (a step
 * has at least one task). A task keeps its `uid` across edits of the origination; a submission's
 * responses refer to it by that uid, so responses of a removed task stay stored but are not shown.
 */
export const originationTasks = pgTable('origination_tasks', {
  id: serial('id').primaryKey(),
  uid: uuid('uid').notNull().defaultRandom(),
  originationId: integer('origination_id').notNull().references(() => originations.id, { onDelete: 'cascade' }),
  stepPosition: integer('step_position').notNull(),
  stepName: text('step_name').notNull(),
  position: integer('position').notNull(),
  name: text('name').notNull(),
  /** `input`, `pending_review`, `validation` or `confirmation`. */
  type: text('type').notNull(),
  /** Text shown to the user while the task waits (pending review); null for none. */
  content: text('content'),
}, (t) => [
  uniqueIndex('origination_tasks_uid_key').on(t.uid),
  index('origination_tasks_order_idx').on(t.originationId, t.stepPosition, t.position),
]);

/** A question of an input task; its integer id is the `question_id` of attachment uploads and the key of its answer. */
export const originationQuestions = pgTable('origination_questions', {
  id: serial('id').primaryKey(),
  taskId: integer('task_id').notNull().references(() => originationTasks.id, { onDelete: 'cascade' }),
  position: integer('position').notNull(),
  label: text('label').notNull(),
  /** `text`, `number`, `date`, `choice` or `file`. */
  type: text('type').notNull(),
  /** The allowed answers of a `choice` question; empty for any text. */
  options: text('options').array().notNull().default(sql`'{}'::text[]`),
}, (t) => [index('origination_questions_task_idx').on(t.taskId, t.position)]);

/** A group of admins who review submissions of a realm. */
export const reviewerGroups = pgTable('reviewer_groups', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('reviewer_groups_name_key').on(t.realmId, sql`lower(${t.name})`)]);

export const reviewerGroupMembers = pgTable('reviewer_group_members', {
  groupId: integer('group_id').notNull().references(() => reviewerGroups.id, { onDelete: 'cascade' }),
  adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.groupId, t.adminId] }), index('reviewer_group_members_admin_idx').on(t.adminId)]);

/**
 * A realm user's run through an origination (spec 2.9). The assignee is a group (group only), an admin
 * picked from a group (both) or an admin (admin only). The deadline is fixed when the submission
 * starts (start + the origination's days) and moved by `extension_days`.
 */
export const submissions = pgTable('submissions', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => realmUsers.id, { onDelete: 'cascade' }),
  /** No cascade: an origination with submissions is not deleted (409); a realm's deletion removes both. */
  originationId: integer('origination_id').notNull().references(() => originations.id),
  /** `not_started`, `pending`, `completed` or `canceled`. */
  status: text('status').notNull(),
  startedAt: moment('started_at'),
  completedAt: moment('completed_at'),
  canceledAt: moment('canceled_at'),
  cancellationReason: text('cancellation_reason'),
  /** Null until started, and for an origination without a deadline. */
  deadlineAt: moment('deadline_at'),
  extensionDays: integer('extension_days').notNull().default(0),
  assigneeGroupId: integer('assignee_group_id').references(() => reviewerGroups.id, { onDelete: 'set null' }),
  assigneeAdminId: integer('assignee_admin_id').references(() => admins.id, { onDelete: 'set null' }),
  ...timestamps,
}, (t) => [
  uniqueIndex('submissions_uuid_key').on(t.uuid),
  index('submissions_user_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  index('submissions_origination_idx').on(t.originationId),
  // A segment on submissions' status reads its realm's submissions (and their users) on every count.
  index('submissions_realm_idx').on(t.realmId, t.userId),
]);

/** A completed task of a submission: the answers of an input task, or who completed a review. */
export const submissionTasks = pgTable('submission_tasks', {
  submissionId: integer('submission_id').notNull().references(() => submissions.id, { onDelete: 'cascade' }),
  taskUid: uuid('task_uid').notNull(),
  /** Answers of an input task keyed by question id; `{}` for other tasks. */
  fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default({}),
  completedAt: moment('completed_at').notNull(),
  completedByAdminId: integer('completed_by_admin_id').references(() => admins.id, { onDelete: 'set null' }),
}, (t) => [primaryKey({ columns: [t.submissionId, t.taskUid] })]);

/**
 * A private file uploaded by a realm user (spec 2.12) to answer a file question. `name` is the client's
 * file name, for display only; the object lives in storage under `storage_key`, built by the server.
 */
export const answerAttachments = pgTable('answer_attachments', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => realmUsers.id, { onDelete: 'cascade' }),
  questionId: integer('question_id').references(() => originationQuestions.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  size: integer('size').notNull(),
  contentType: text('content_type').notNull(),
  storageKey: text('storage_key').notNull(),
  createdAt: timestamps.createdAt,
}, (t) => [
  uniqueIndex('answer_attachments_uuid_key').on(t.uuid), index('answer_attachments_user_idx').on(t.userId),
  index('answer_attachments_question_idx').on(t.questionId).where(sql`${t.questionId} is not null`),
]);
