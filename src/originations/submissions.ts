import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { textSearch } from '../db/like.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { orderOf, type ListParams } from '../db/sorting.js';
import { recordEvent } from '../events/events.js';
import { invalidField, notFound, submissionClosed, submissionNotFound } from '../errors/index.js';
import type { Customer } from '../realms/credential.js';
import type { Realm } from '../realms/realms.js';
import { realmUsers } from '../tables/realms.js';
import { findRealmUser } from '../realms/users.js';
import { findOrigination, type Origination } from './definitions.js';
import { addDays } from './due.js';
import { originations, submissions } from '../tables/originations.js';
import { submissionBodies, submissionStatusEvent, type Submission, type SubmissionBody } from './view.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a client's text can be a uuid column's value (anything else names nothing, and the database would refuse it). */
export const isUuid = (text: string) => UUID.test(text);

export async function bodyOf(ctx: Context, row: Submission): Promise<SubmissionBody> {
  const [body] = await submissionBodies(ctx.db, [row], ctx.clock.now());
  return body;
}

/** The submission a request names, its row locked until the transaction ends; null when there is none. */
export async function lockSubmission(tx: Db, where: SQL): Promise<Submission | null> {
  const [row] = await tx.select().from(submissions).where(where).for('update');
  return row ?? null;
}

export function assertOpen(submission: Submission): void {
  if (submission.status === 'completed' || submission.status === 'canceled') throw submissionClosed(submission.status);
}

/**
 * Starts the submission now: pending, its deadline fixed from the origination's days, and the
 * business event `origination_submission_started_log` recorded with it (and `submission.status_changed`).
 */
export async function begin(
  tx: Db, ctx: Context, realm: Realm, submission: Submission, origination: Origination, impersonatorId: number | null,
): Promise<void> {
  const now = ctx.clock.now();
  await tx.update(submissions).set({
    status: 'pending', startedAt: now, deadlineAt: origination.deadlineDays === null ? null : addDays(now, origination.deadlineDays), updatedAt: now,
  }).where(eq(submissions.id, submission.id));
  await recordEvent({ ...ctx, db: tx }, {
    realmId: submission.realmId, userId: submission.userId, type: 'origination_submission_started_log', impersonatorId,
    properties: { submission_uuid: submission.uuid, origination_uuid: origination.uuid, origination_name: origination.name },
  });
  await emitWebhookEvent(ctx, tx, submissionStatusEvent(realm.uid, submission, origination.uuid, 'pending', submission.status));
}

/** Admin: a submission of the origination for a user of the realm; started now unless `start` is false. */
export async function startSubmission(ctx: ActingContext, realm: Realm, originationId: number, input: { user_id: number; start?: boolean }): Promise<SubmissionBody> {
  ctx.actor.assertHolds('realm.originations.review', realm.uid);
  const row = await ctx.db.transaction(async (tx) => {
    // Shared: the origination cannot be deleted while its submission is being made.
    const origination = await findOrigination(tx, realm, originationId, 'share');
    const [user] = await tx.select({ id: realmUsers.id }).from(realmUsers).where(and(eq(realmUsers.id, input.user_id), eq(realmUsers.realmId, realm.id)));
    if (!user) throw invalidField('user_id', 'is not a user of this realm');
    const now = ctx.clock.now();
    const [created] = await tx.insert(submissions).values({
      realmId: realm.id, userId: user.id, originationId, status: 'not_started', createdAt: now, updatedAt: now,
    }).returning();
    await emitWebhookEvent(ctx, tx, submissionStatusEvent(realm.uid, created, origination.uuid, created.status, null));
    if (input.start ?? true) await begin(tx, ctx, realm, created, origination, null);
    const [current] = await tx.select().from(submissions).where(eq(submissions.id, created.id));
    return current;
  });
  return bodyOf(ctx, row);
}

/** Admin: the realm's submission with this id; 404 otherwise. */
export async function findSubmission(db: Db, realm: Realm, id: number): Promise<Submission> {
  const [row] = await db.select().from(submissions).where(and(eq(submissions.id, id), eq(submissions.realmId, realm.id)));
  if (!row) throw notFound('Submission');
  return row;
}

export async function getSubmission(ctx: ActingContext, realm: Realm, id: number): Promise<SubmissionBody> {
  ctx.actor.assertHolds('realm.originations.read', realm.uid);
  return bodyOf(ctx, await findSubmission(ctx.db, realm, id));
}

export const SUBMISSION_SORTABLE = {
  id: submissions.id, status: submissions.status, started_at: submissions.startedAt, deadline_at: submissions.deadlineAt,
  created_at: submissions.createdAt, updated_at: submissions.updatedAt,
};

/** A page of one user's submissions, newest first unless `sort_by` says otherwise; `query` looks in the origination's name. */
async function listOf(ctx: Context, userId: number, page: Page, query: ListParams = {}) {
  const named = textSearch(query.query, [originations.name]);
  const where = and(
    eq(submissions.userId, userId),
    named ? inArray(submissions.originationId, ctx.db.select({ id: originations.id }).from(originations).where(named)) : undefined,
  );
  const rows = await ctx.db.select({ submission: submissions, total: totalCount }).from(submissions).where(where)
    .orderBy(orderOf(SUBMISSION_SORTABLE, query, submissions.createdAt, 'desc'), desc(submissions.id)).limit(page.perPage).offset(page.offset);
  const items = await submissionBodies(ctx.db, rows.map((r) => r.submission), ctx.clock.now());
  return { items, total: await totalOf(rows, page, ctx.db, submissions, where) };
}

export async function listUserSubmissions(ctx: ActingContext, realm: Realm, userId: number, page: Page, query: ListParams) {
  ctx.actor.assertHolds('realm.originations.read', realm.uid);
  await findRealmUser(ctx.db, realm, userId);
  return listOf(ctx, userId, page, query);
}

/** Customers: the signed-in user's submissions. */
export const listCustomerSubmissions = (ctx: Context, customer: Customer, page: Page) => listOf(ctx, customer.user.id, page);

/** The signed-in user's own submission with this uuid; another user's answers 404 `{}` like an unknown one. */
export const customerSubmission = (customer: Customer, uuid: string) => and(
  eq(submissions.uuid, uuid), eq(submissions.userId, customer.user.id), eq(submissions.realmId, customer.realm.id),
)!;

export async function getCustomerSubmission(ctx: Context, customer: Customer, uuid: string): Promise<SubmissionBody> {
  if (!isUuid(uuid)) throw submissionNotFound();
  const [row] = await ctx.db.select().from(submissions).where(customerSubmission(customer, uuid));
  if (!row) throw submissionNotFound();
  return bodyOf(ctx, row);
}
