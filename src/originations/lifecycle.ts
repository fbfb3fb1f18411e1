import { and, eq } from 'drizzle-orm';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { FieldErrors, invalidField, notFound } from '../errors/index.js';
import type { Realm } from '../realms/realms.js';
import { findOrigination } from './definitions.js';
import { findGroup, isMember } from './groups.js';
import { reviewersAmong } from './reviewers.js';
import { LIMITS } from './schema.js';
import { assertOpen, bodyOf, lockSubmission } from './submissions.js';
import { submissions } from '../tables/originations.js';
import { submissionStatusEvent, type Submission, type SubmissionBody } from './view.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';

type Changes = Partial<Pick<Submission, 'assigneeGroupId' | 'assigneeAdminId' | 'extensionDays' | 'status' | 'canceledAt' | 'cancellationReason'>>;

/**
 * Changes an open submission of the realm (409 once completed or canceled) while holding its row, so
 * that it never races a task being completed or another change. `decide` reads the locked row.
 */
async function changeOpen(ctx: Context, realm: Realm, id: number, decide: (submission: Submission, tx: Db) => Promise<Changes> | Changes): Promise<SubmissionBody> {
  const row = await ctx.db.transaction(async (tx) => {
    const submission = await lockSubmission(tx, and(eq(submissions.id, id), eq(submissions.realmId, realm.id))!);
    if (!submission) throw notFound('Submission');
    assertOpen(submission);
    const changes = await decide(submission, tx);
    const [updated] = await tx.update(submissions).set({ ...changes, updatedAt: ctx.clock.now() }).where(eq(submissions.id, id)).returning();
    if (updated.status !== submission.status) {
      const origination = await findOrigination(tx, realm, submission.originationId);
      await emitWebhookEvent(ctx, tx, submissionStatusEvent(realm.uid, updated, origination.uuid, updated.status, submission.status));
    }
    return updated;
  });
  return bodyOf(ctx, row);
}

/**
 * Spec 2.10: a group (group_id alone), an admin picked from a group (both; a member of it), an admin
 * (admin_id alone), or nobody (neither). An admin must be an active team member who may review the
 * realm's submissions.
 */
export function assignSubmission(ctx: ActingContext, realm: Realm, id: number, input: { group_id?: number | null; admin_id?: number | null }) {
  ctx.actor.assertHolds('realm.originations.review', realm.uid);
  return changeOpen(ctx, realm, id, async (_submission, tx) => {
    const groupId = input.group_id ?? null;
    const adminId = input.admin_id ?? null;
    const errors = new FieldErrors();
    if (groupId !== null) await findGroup(tx, realm, groupId).catch(() => errors.add('group_id', 'is not a reviewer group of this realm'));
    if (adminId !== null) {
      if (!(await reviewersAmong(tx, realm, [adminId])).has(adminId)) errors.add('admin_id', 'is not an active team member who may review this realm\'s submissions');
      else if (groupId !== null && !errors.all.length && !(await isMember(tx, groupId, adminId))) errors.add('admin_id', 'is not a member of the group');
    }
    errors.throwIfAny();
    return { assigneeGroupId: groupId, assigneeAdminId: adminId };
  });
}

/**
 * Moves the deadline by `days` (1 to 365 at a time, at most 3650 in all). A submission whose
 * origination has no deadline has none to move (422).
 */
export function extendDeadline(ctx: ActingContext, realm: Realm, id: number, days: number) {
  ctx.actor.assertHolds('realm.originations.review', realm.uid);
  return changeOpen(ctx, realm, id, async (submission, tx) => {
    if (submission.status === 'pending' && submission.deadlineAt === null) throw invalidField('days', 'cannot extend a submission without a deadline');
    if (submission.status === 'not_started' && (await findOrigination(tx, realm, submission.originationId)).deadlineDays === null) {
      throw invalidField('days', 'cannot extend a submission without a deadline');
    }
    const total = submission.extensionDays + days;
    if (total > LIMITS.totalExtensionDays) throw invalidField('days', `would extend the deadline by more than ${LIMITS.totalExtensionDays} days in all`);
    return { extensionDays: total };
  });
}

export function cancelSubmission(ctx: ActingContext, realm: Realm, id: number, reason: string) {
  ctx.actor.assertHolds('realm.originations.review', realm.uid);
  if (!reason.trim()) throw invalidField('reason', "can't be blank");
  return changeOpen(ctx, realm, id, () => ({ status: 'canceled', canceledAt: ctx.clock.now(), cancellationReason: reason.trim() }));
}
