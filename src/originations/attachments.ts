import { and, eq, inArray } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { answerAttachments, originationQuestions, originationTasks, originations } from '../tables/originations.js';

export type AnswerAttachment = typeof answerAttachments.$inferSelect;

/** The user's attachment with this integer id in the realm, or null (unknown, or another user's). */
export async function findUserAttachment(ctx: Pick<Context, 'db'>, realmId: number, userId: number, id: number): Promise<AnswerAttachment | null> {
  const [row] = await ctx.db.select().from(answerAttachments)
    .where(and(eq(answerAttachments.id, id), eq(answerAttachments.realmId, realmId), eq(answerAttachments.userId, userId)));
  return row ?? null;
}

/** Whether `questionId` is a `file` question of an origination of the realm (spec 4.3 rule 4: otherwise 404). */
export async function isFileQuestion(ctx: Pick<Context, 'db'>, realmId: number, questionId: number): Promise<boolean> {
  const [row] = await ctx.db.select({ id: originationQuestions.id }).from(originationQuestions)
    .innerJoin(originationTasks, eq(originationTasks.id, originationQuestions.taskId))
    .innerJoin(originations, eq(originations.id, originationTasks.originationId))
    .where(and(eq(originationQuestions.id, questionId), eq(originationQuestions.type, 'file'), eq(originations.realmId, realmId)));
  return row !== undefined;
}

/** Of these attachment ids, the ones that still exist (an answer whose file was deleted is left without one). */
export async function existingAttachmentIds(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: answerAttachments.id }).from(answerAttachments).where(inArray(answerAttachments.id, ids));
  return new Set(rows.map((r) => r.id));
}
