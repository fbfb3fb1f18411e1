import { inArray } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { Db } from '../db/connect.js';
import { readAll } from '../db/parallel.js';
import { admins } from '../tables/admin-auth.js';
import { realmUsers } from '../tables/realms.js';
import { userName } from '../realms/users.js';
import { existingAttachmentIds } from './attachments.js';
import { questionBody, tasksOf, type Task } from './definitions.js';
import { dueOf } from './due.js';
import { adminName } from '../admin-auth/member-name.js';
import type { Admin } from './reviewers.js';
import type { AssigneeModel, SubmissionModel, TaskResponseModel } from './schema.js';
import { originations, reviewerGroups, submissionTasks, submissions } from '../tables/originations.js';
import type { WebhookEvent } from '../webhooks/outbox.js';

export type Submission = typeof submissions.$inferSelect;
export type Response = typeof submissionTasks.$inferSelect;
export type SubmissionBody = Static<typeof SubmissionModel>;
type AssigneeBody = Static<typeof AssigneeModel>;
type TaskResponseBody = Static<typeof TaskResponseModel>;

/** `submission.status_changed`: a submission reached `status` from `previous` (null when it was just made). */
export function submissionStatusEvent(
  realmUid: string, submission: Pick<Submission, 'id' | 'uuid' | 'userId'>, originationUuid: string, status: string, previous: string | null,
): WebhookEvent {
  return {
    type: 'submission.status_changed',
    realmUid,
    data: {
      id: submission.id, uuid: submission.uuid, origination_uuid: originationUuid, user_id: submission.userId,
      status, previous_status: previous, realm_uid: realmUid,
    },
  };
}

const REVIEW_TASKS: readonly string[] = ['pending_review', 'validation'];

/** Where a submission stands: which tasks are done, and which one is next (none once all are). */
export function progressOf(submission: Pick<Submission, 'status'>, tasks: Task[], responses: Response[]) {
  const done = new Set(responses.map((r) => r.taskUid));
  const current = tasks.find((t) => !done.has(t.uid)) ?? null;
  const status = (task: Task) => (done.has(task.uid) ? 'completed' as const
    : task === current && submission.status === 'pending' ? 'pending' as const : 'not_started' as const);
  const completed = tasks.filter((t) => done.has(t.uid)).length;
  return { done, current, status, percent: tasks.length ? Math.floor((completed * 100) / tasks.length) : 0 };
}

/** Everything the bodies of these submissions (at least one) show, in a fixed number of queries whatever their count. */
async function loadRelated(db: Db, rows: Submission[]) {
  const unique = <T>(values: (T | null)[]) => [...new Set(values.filter((v): v is T => v !== null))];
  const ids = rows.map((r) => r.id);
  const originationIds = unique(rows.map((r) => r.originationId));
  const groupIds = unique(rows.map((r) => r.assigneeGroupId));
  const [originationRows, tasks, responses, users, groups] = await readAll(db, [
    () => db.select().from(originations).where(inArray(originations.id, originationIds)),
    () => tasksOf(db, originationIds),
    () => db.select().from(submissionTasks).where(inArray(submissionTasks.submissionId, ids)),
    () => db.select().from(realmUsers).where(inArray(realmUsers.id, unique(rows.map((r) => r.userId)))),
    async () => (groupIds.length ? db.select().from(reviewerGroups).where(inArray(reviewerGroups.id, groupIds)) : []),
  ] as const);
  const adminIds = unique([...rows.map((r) => r.assigneeAdminId), ...responses.map((r) => r.completedByAdminId)]);
  const adminRows = adminIds.length ? await db.select().from(admins).where(inArray(admins.id, adminIds)) : [];
  const fileAnswers = responses.flatMap((response) => {
    const task = [...tasks.values()].flat().find((t) => t.uid === response.taskUid);
    return (task?.questions ?? []).filter((q) => q.type === 'file').map((q) => response.fields[String(q.id)])
      .filter((v): v is number => typeof v === 'number');
  });
  return {
    origination: new Map(originationRows.map((o) => [o.id, o])),
    tasks,
    responses,
    user: new Map(users.map((u) => [u.id, u])),
    group: new Map(groups.map((g) => [g.id, g])),
    admin: new Map(adminRows.map((a) => [a.id, a])),
    attachments: await existingAttachmentIds(db, [...new Set(fileAnswers)]),
  };
}

type Related = Awaited<ReturnType<typeof loadRelated>>;

const person = (admin: Admin) => ({ id: admin.id, uuid: admin.uuid, name: adminName(admin), first_name: admin.firstName, last_name: admin.lastName });

/** Spec 2.10: a group, an admin picked from a group, or an admin. */
function assigneeOf(submission: Submission, related: Related): AssigneeBody | null {
  const group = submission.assigneeGroupId === null ? undefined : related.group.get(submission.assigneeGroupId);
  const admin = submission.assigneeAdminId === null ? undefined : related.admin.get(submission.assigneeAdminId);
  if (admin && group) {
    return { type: 'user_in_group', ...person(admin), group_id: group.id, group_name: group.name, label: `${adminName(admin)} (${group.name})` };
  }
  if (admin) return { type: 'user', ...person(admin), label: adminName(admin) };
  if (group) return { type: 'group', id: group.id, name: group.name, label: group.name };
  return null;
}

/**
 * A review task shows who reviews it: the admin who completed it, or while open the submission's
 * assignee. Tasks the user completes show none.
 */
function taskAssignee(task: Task, response: Response | undefined, assignee: AssigneeBody | null, related: Related) {
  const none = { assignee_id: null, assignee_group_id: null, assignee_context_group_id: null, assignee_label: null };
  if (!REVIEW_TASKS.includes(task.type)) return none;
  if (response) {
    const admin = response.completedByAdminId === null ? undefined : related.admin.get(response.completedByAdminId);
    return admin ? { ...none, assignee_id: admin.id, assignee_label: adminName(admin) } : none;
  }
  if (!assignee) return none;
  if (assignee.type === 'group') return { ...none, assignee_group_id: assignee.id, assignee_label: assignee.label };
  if (assignee.type === 'user_in_group') return { ...none, assignee_id: assignee.id, assignee_context_group_id: assignee.group_id, assignee_label: assignee.label };
  return { ...none, assignee_id: assignee.id, assignee_label: assignee.label };
}

function fieldsOf(task: Task, response: Response | undefined, related: Related): Record<string, string | number | null> {
  const fields: Record<string, string | number | null> = {};
  if (!response) return fields;
  for (const question of task.questions) {
    const value = response.fields[String(question.id)] as string | number | undefined;
    if (value === undefined) continue;
    // An answer whose file was deleted is left without one (spec 3).
    fields[String(question.id)] = question.type === 'file' && !related.attachments.has(value as number) ? null : value;
  }
  return fields;
}

function submissionBody(submission: Submission, related: Related, now: Date): SubmissionBody {
  const origination = related.origination.get(submission.originationId)!;
  const tasks = related.tasks.get(submission.originationId) ?? [];
  const responses = related.responses.filter((r) => r.submissionId === submission.id);
  const progress = progressOf(submission, tasks, responses);
  const user = related.user.get(submission.userId)!;
  const assignee = assigneeOf(submission, related);
  return {
    id: submission.id,
    uuid: submission.uuid,
    status: submission.status as SubmissionBody['status'],
    progress: `${progress.percent}%`,
    ...dueOf({ status: submission.status, deadlineAt: submission.deadlineAt, extensionDays: submission.extensionDays, hasDeadline: origination.deadlineDays !== null }, now),
    created_at: submission.createdAt.toISOString(),
    updated_at: submission.updatedAt.toISOString(),
    started_at: submission.startedAt?.toISOString() ?? null,
    origination_name: origination.name,
    origination_uuid: origination.uuid,
    cancellation_reason: submission.cancellationReason,
    user: { id: user.id, uuid: user.uuid, name: userName(user), first_name: user.firstName, last_name: user.lastName },
    assignee,
    // Only the origination's tasks as they are now: responses of a removed task are not shown (spec 2.11).
    tasks: tasks.map((task): TaskResponseBody => {
      const response = responses.find((r) => r.taskUid === task.uid);
      return {
        task: { uid: task.uid, name: task.name, type: task.type, step_name: task.stepName, ...(task.type === 'input' ? { questions: task.questions.map(questionBody) } : {}) },
        status: progress.status(task),
        user_id: submission.userId,
        ...taskAssignee(task, response, assignee, related),
        ...(task.type === 'input' ? { fields: fieldsOf(task, response, related) } : {}),
        ...(task.type === 'pending_review' ? { content: task.content } : {}),
      };
    }),
  };
}

export async function submissionBodies(db: Db, rows: Submission[], now: Date): Promise<SubmissionBody[]> {
  if (!rows.length) return [];
  const related = await loadRelated(db, rows);
  return rows.map((row) => submissionBody(row, related, now));
}
