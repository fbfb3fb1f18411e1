import { and, asc, desc, eq, inArray, notInArray } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { orderOf } from '../db/sorting.js';
import { textSearch } from '../db/like.js';
import { FieldErrors, invalidField, notFound, originationInUse } from '../errors/index.js';
import type { Realm } from '../realms/realms.js';
import type { OriginationChanges, OriginationInput, OriginationModel, StepInput } from './schema.js';
import { originationQuestions, originationTasks, originations, submissions } from '../tables/originations.js';

export type Origination = typeof originations.$inferSelect;
export type Question = typeof originationQuestions.$inferSelect;
export type Task = typeof originationTasks.$inferSelect & { questions: Question[] };
export type OriginationBody = Static<typeof OriginationModel>;
type Steps = Static<typeof StepInput>[];

/** The tasks of these originations in order (step, then task), each with its questions in order. */
export async function tasksOf(db: Db, originationIds: number[]): Promise<Map<number, Task[]>> {
  const byOrigination = new Map<number, Task[]>(originationIds.map((id) => [id, []]));
  if (!originationIds.length) return byOrigination;
  const tasks = await db.select().from(originationTasks).where(inArray(originationTasks.originationId, originationIds))
    .orderBy(asc(originationTasks.stepPosition), asc(originationTasks.position));
  const questions = tasks.length ? await db.select().from(originationQuestions)
    .where(inArray(originationQuestions.taskId, tasks.map((t) => t.id))).orderBy(asc(originationQuestions.position)) : [];
  for (const task of tasks) {
    byOrigination.get(task.originationId)!.push({ ...task, questions: questions.filter((q) => q.taskId === task.id) });
  }
  return byOrigination;
}

export const questionBody = (q: Question) => ({ id: q.id, label: q.label, type: q.type, options: q.options });

export function originationBody(origination: Origination, tasks: Task[]): OriginationBody {
  const steps: OriginationBody['steps'] = [];
  let position = -1;
  for (const task of tasks) {
    if (task.stepPosition !== position) {
      steps.push({ name: task.stepName, tasks: [] });
      position = task.stepPosition;
    }
    steps[steps.length - 1].tasks.push({ uid: task.uid, name: task.name, type: task.type, content: task.content, questions: task.questions.map(questionBody) });
  }
  return {
    id: origination.id, uuid: origination.uuid, name: origination.name, deadline_days: origination.deadlineDays, steps,
    created_at: origination.createdAt.toISOString(), updated_at: origination.updatedAt.toISOString(),
  };
}

/** The realm's origination with this id; 404 otherwise. `lock` holds its row until the transaction ends. */
export async function findOrigination(db: Db, realm: Realm, id: number, lock?: 'update' | 'share'): Promise<Origination> {
  const query = db.select().from(originations).where(and(eq(originations.id, id), eq(originations.realmId, realm.id)));
  const [row] = await (lock ? query.for(lock) : query);
  if (!row) throw notFound('Origination');
  return row;
}

/**
 * What the schema cannot say: an input task asks at least one question and other tasks none; a kept
 * task or question (by uid or id) is one of this origination's, named once; a choice's options are distinct.
 */
function checkSteps(steps: Steps, current: Task[]): void {
  const errors = new FieldErrors();
  const uids = new Set<string>();
  const questionIds = new Set<number>();
  steps.forEach((step, s) => step.tasks.forEach((task, t) => {
    const at = `steps.${s}.tasks.${t}`;
    const questions = task.questions ?? [];
    if (task.type === 'input' && !questions.length) errors.add(`${at}.questions`, 'must hold at least one question on an input task');
    if (task.type !== 'input' && questions.length) errors.add(`${at}.questions`, 'are only asked by input tasks');
    if (task.uid !== undefined) {
      if (uids.has(task.uid)) errors.add(`${at}.uid`, 'is given twice');
      else if (!current.some((c) => c.uid === task.uid)) errors.add(`${at}.uid`, 'is not a task of this origination');
      uids.add(task.uid);
    }
    questions.forEach((question, q) => {
      if (question.id !== undefined) {
        if (questionIds.has(question.id)) errors.add(`${at}.questions.${q}.id`, 'is given twice');
        else if (!current.some((c) => c.questions.some((cq) => cq.id === question.id))) errors.add(`${at}.questions.${q}.id`, 'is not a question of this origination');
        questionIds.add(question.id);
      }
      const options = question.options ?? [];
      if (question.type !== 'choice' && options.length) errors.add(`${at}.questions.${q}.options`, 'are only given to choice questions');
      if (new Set(options).size !== options.length) errors.add(`${at}.questions.${q}.options`, 'must be distinct');
    });
  }));
  errors.throwIfAny();
}

/**
 * Makes the origination's tasks and questions those of `steps`: kept ones (named by uid or id) are
 * changed in place, new ones added, the others removed (a removed question's uploads keep their file;
 * a removed task's responses stay stored, unshown).
 */
async function writeSteps(tx: Db, originationId: number, steps: Steps, current: Task[]): Promise<void> {
  const keptQuestions = new Set(steps.flatMap((s) => s.tasks.flatMap((t) => (t.questions ?? []).flatMap((q) => (q.id ? [q.id] : [])))));
  const goneQuestions = current.flatMap((t) => t.questions.map((q) => q.id)).filter((id) => !keptQuestions.has(id));
  if (goneQuestions.length) await tx.delete(originationQuestions).where(inArray(originationQuestions.id, goneQuestions));
  const written: number[] = [];
  for (const [s, step] of steps.entries()) {
    for (const [t, task] of step.tasks.entries()) {
      const values = { stepPosition: s, stepName: step.name, position: t, name: task.name, type: task.type, content: task.content ?? null };
      const [row] = task.uid
        ? await tx.update(originationTasks).set(values).where(eq(originationTasks.uid, task.uid)).returning({ id: originationTasks.id })
        : await tx.insert(originationTasks).values({ ...values, originationId }).returning({ id: originationTasks.id });
      written.push(row.id);
      for (const [q, question] of (task.questions ?? []).entries()) {
        const fields = { taskId: row.id, position: q, label: question.label, type: question.type, options: question.options ?? [] };
        if (question.id) await tx.update(originationQuestions).set(fields).where(eq(originationQuestions.id, question.id));
        else await tx.insert(originationQuestions).values(fields);
      }
    }
  }
  // Last, so that a kept question has moved off a removed task before the task (and what it still holds) goes.
  await tx.delete(originationTasks).where(and(eq(originationTasks.originationId, originationId), notInArray(originationTasks.id, written)));
}

export async function getOrigination(ctx: ActingContext, realm: Realm, id: number): Promise<OriginationBody> {
  ctx.actor.assertHolds('realm.originations.read', realm.uid);
  return originationById(ctx, realm, id);
}

/** The realm's origination as the admin API shows it, or a 404 (no permission asked here). */
async function originationById(ctx: Context, realm: Realm, id: number): Promise<OriginationBody> {
  const origination = await findOrigination(ctx.db, realm, id);
  return originationBody(origination, (await tasksOf(ctx.db, [id])).get(id)!);
}

export const ORIGINATION_SORTABLE = { id: originations.id, name: originations.name, created_at: originations.createdAt, updated_at: originations.updatedAt };

export async function listOriginations(ctx: ActingContext, realm: Realm, page: Page, query: { query?: string; sort_by?: string; order?: string }) {
  ctx.actor.assertHolds('realm.originations.read', realm.uid);
  const where = and(eq(originations.realmId, realm.id), textSearch(query.query, [originations.name]));
  const rows = await ctx.db.select({ origination: originations, total: totalCount }).from(originations).where(where)
    .orderBy(orderOf(ORIGINATION_SORTABLE, query, originations.updatedAt, 'desc'), desc(originations.id)).limit(page.perPage).offset(page.offset);
  const tasks = await tasksOf(ctx.db, rows.map((r) => r.origination.id));
  const total = await totalOf(rows, page, ctx.db, originations, where);
  return { items: rows.map((r) => originationBody(r.origination, tasks.get(r.origination.id)!)), total };
}

function checkName(name: string | undefined): void {
  if (name !== undefined && !name.trim()) throw invalidField('name', "can't be blank");
}

export async function createOrigination(ctx: ActingContext, realm: Realm, input: Static<typeof OriginationInput>): Promise<OriginationBody> {
  ctx.actor.assertHolds('realm.originations.manage', realm.uid);
  checkName(input.name);
  checkSteps(input.steps, []);
  const now = ctx.clock.now();
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(originations).values({
      realmId: realm.id, name: input.name.trim(), deadlineDays: input.deadline_days ?? null, createdAt: now, updatedAt: now,
    }).returning({ id: originations.id });
    await writeSteps(tx, row.id, input.steps, []);
    return row.id;
  });
  return originationById(ctx, realm, id);
}

/** PUT is partial; `steps`, when given, is the whole new structure (see writeSteps). */
export async function updateOrigination(ctx: ActingContext, realm: Realm, id: number, changes: Static<typeof OriginationChanges>): Promise<OriginationBody> {
  ctx.actor.assertHolds('realm.originations.manage', realm.uid);
  checkName(changes.name);
  await ctx.db.transaction(async (tx) => {
    await findOrigination(tx, realm, id, 'update');
    if (changes.steps) {
      const current = (await tasksOf(tx, [id])).get(id)!;
      checkSteps(changes.steps, current);
      await writeSteps(tx, id, changes.steps, current);
    }
    await tx.update(originations).set({
      name: changes.name?.trim(), deadlineDays: changes.deadline_days, updatedAt: ctx.clock.now(),
    }).where(eq(originations.id, id));
  });
  return originationById(ctx, realm, id);
}

/** An origination that has submissions is kept (409): they show its name and tasks. */
export async function deleteOrigination(ctx: ActingContext, realm: Realm, id: number): Promise<void> {
  ctx.actor.assertHolds('realm.originations.manage', realm.uid);
  await ctx.db.transaction(async (tx) => {
    // The lock waits for a submission being started (which holds the row shared) and keeps new ones out.
    await findOrigination(tx, realm, id, 'update');
    const [used] = await tx.select({ id: submissions.id }).from(submissions).where(eq(submissions.originationId, id)).limit(1);
    if (used) throw originationInUse();
    await tx.delete(originations).where(eq(originations.id, id));
  });
}
