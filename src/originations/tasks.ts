import { and, eq, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { recordEvent } from '../events/events.js';
import { forbidden, notFound, submissionNotFound, taskNotCurrent, taskNotYours, type AppError } from '../errors/index.js';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Customer } from '../realms/credential.js';
import type { Realm } from '../realms/realms.js';
import { checkAnswers, type Answers } from './answers.js';
import { findOrigination, tasksOf, type Task } from './definitions.js';
import { isMember } from './groups.js';
import { USER_TASKS } from './schema.js';
import { assertOpen, begin, bodyOf, customerSubmission, isUuid, lockSubmission } from './submissions.js';
import { submissionTasks, submissions } from '../tables/originations.js';
import { progressOf, submissionStatusEvent, type Submission, type SubmissionBody } from './view.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';

interface Completion {
  /** Who completes it: the realm user (with the impersonating admin, if any), or a reviewer. */
  impersonatorId: number | null;
  adminId: number | null;
  /** The task's answers, checked against the task once it is known. */
  answers(task: Task, tx: Db): Promise<Answers>;
  /** Refuses a task this party does not complete. */
  assertMayComplete(task: Task, submission: Submission, tx: Db): Promise<void>;
}

/**
 * Completes one task of a submission in one transaction that holds the submission's row: an open
 * submission (409 once completed or canceled), the task next in order (409 for one done or not yet
 * reached). The first completed task starts a submission not yet started; the last one completes it,
 * recording `origination_submission_completed_log`, so that of concurrent requests exactly one does,
 * and a cancel waiting on the same row sees either nothing or all of it.
 */
async function completeTask(ctx: Context, realm: Realm, where: SQL, taskUid: string, notFoundError: () => AppError, by: Completion): Promise<Submission> {
  if (!isUuid(taskUid)) throw notFoundError();
  return ctx.db.transaction(async (tx) => {
    const submission = await lockSubmission(tx, where);
    if (!submission) throw notFoundError();
    const tasks = (await tasksOf(tx, [submission.originationId])).get(submission.originationId)!;
    const task = tasks.find((t) => t.uid === taskUid);
    if (!task) throw notFoundError();
    assertOpen(submission);
    await by.assertMayComplete(task, submission, tx);
    const responses = await tx.select().from(submissionTasks).where(eq(submissionTasks.submissionId, submission.id));
    const { done, current } = progressOf(submission, tasks, responses);
    if (done.has(task.uid)) throw taskNotCurrent('This task is already completed');
    if (current !== task) throw taskNotCurrent(`Complete the task "${current!.name}" first`);
    const fields = await by.answers(task, tx);
    const now = ctx.clock.now();
    await tx.insert(submissionTasks).values({ submissionId: submission.id, taskUid: task.uid, fields, completedAt: now, completedByAdminId: by.adminId });
    const origination = await findOrigination(tx, realm, submission.originationId);
    if (submission.status === 'not_started') await begin(tx, ctx, realm, submission, origination, by.impersonatorId);
    const last = tasks.every((t) => t === task || done.has(t.uid));
    await tx.update(submissions).set(last ? { status: 'completed', completedAt: now, updatedAt: now } : { updatedAt: now })
      .where(eq(submissions.id, submission.id));
    if (last) {
      await recordEvent({ ...ctx, db: tx }, {
        realmId: submission.realmId, userId: submission.userId, type: 'origination_submission_completed_log', impersonatorId: by.impersonatorId,
        properties: { submission_uuid: submission.uuid, origination_uuid: origination.uuid, origination_name: origination.name },
      });
      await emitWebhookEvent(ctx, tx, submissionStatusEvent(realm.uid, submission, origination.uuid, 'completed', 'pending'));
    }
    const [row] = await tx.select().from(submissions).where(eq(submissions.id, submission.id));
    return row;
  });
}

/**
 * Customers: the signed-in user answers an input task (its questions, checked by type) or a
 * confirmation task (no answers) of one of their own submissions.
 */
export async function answerTask(ctx: Context, customer: Customer, uuid: string, taskUid: string, fields: Record<string, unknown>): Promise<SubmissionBody> {
  if (!isUuid(uuid)) throw submissionNotFound();
  const row = await completeTask(ctx, customer.realm, customerSubmission(customer, uuid), taskUid, submissionNotFound, {
    impersonatorId: customer.session.impersonatorId,
    adminId: null,
    async assertMayComplete(task) {
      if (!USER_TASKS.includes(task.type)) throw taskNotYours('This task is completed by a reviewer, not answered');
    },
    answers: (task, tx) => checkAnswers(tx, { realmId: customer.realm.id, userId: customer.user.id }, task, fields),
  });
  return bodyOf(ctx, row);
}

/**
 * Admin: a reviewer completes a pending review or validation task. A submission assigned to an admin
 * is reviewed by that admin, one assigned to a group by its members; anyone who manages the realm's
 * originations may step in (403 otherwise).
 */
export async function completeReviewTask(ctx: ActingContext, realm: Realm, id: number, taskUid: string): Promise<SubmissionBody> {
  const where = and(eq(submissions.id, id), eq(submissions.realmId, realm.id))!;
  const row = await completeTask(ctx, realm, where, taskUid, () => notFound('Submission or task'), {
    impersonatorId: null,
    adminId: ctx.actor.adminId,
    async assertMayComplete(task, submission, tx) {
      if (USER_TASKS.includes(task.type)) throw taskNotYours('This task is completed by the user, not by a reviewer');
      if (ctx.actor.holdsOn('realm.originations.manage', realm.uid)) return;
      const assignedAdmin = submission.assigneeAdminId;
      if (assignedAdmin !== null ? assignedAdmin !== ctx.actor.adminId
        : submission.assigneeGroupId !== null && !(await isMember(tx, submission.assigneeGroupId, ctx.actor.adminId))) {
        throw forbidden('This submission is assigned to another reviewer');
      }
    },
    answers: async () => ({}),
  });
  return bodyOf(ctx, row);
}
