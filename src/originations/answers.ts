import type { Db } from '../db/connect.js';
import { FieldErrors } from '../errors/index.js';
import { INT32_MAX } from '../http/models.js';
import { findUserAttachment } from './attachments.js';
import type { Question, Task } from './definitions.js';

export type Answers = Record<string, string | number>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** What is wrong with a value for a question whose answer needs no lookup, or null. */
function problemOf(question: Question, value: unknown): string | null {
  switch (question.type) {
    case 'text':
      return typeof value === 'string' && value.trim() ? null : 'must be a text';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? null : 'must be a date (YYYY-MM-DD)';
    case 'choice':
      if (typeof value !== 'string' || !value.trim()) return 'must be one of the choices';
      return question.options.length && !question.options.includes(value) ? `must be one of: ${question.options.join(', ')}` : null;
    case 'file':
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= INT32_MAX ? null : 'must be the id of an uploaded attachment';
    default:
      return 'cannot be answered';
  }
}

/**
 * The answers of an input task, checked by question type: one per question, keyed by its id, nothing
 * else; a file question's value is the id of an attachment the same user uploaded in the realm (for
 * this question, or for none in particular). A confirmation task takes none. 422 names each problem.
 */
export async function checkAnswers(
  db: Db, owner: { realmId: number; userId: number }, task: Task, fields: Record<string, unknown>,
): Promise<Answers> {
  const errors = new FieldErrors();
  const answers: Answers = {};
  const byId = new Map(task.questions.map((q) => [String(q.id), q]));
  for (const key of Object.keys(fields)) {
    if (!byId.has(key)) errors.add(`fields.${key}`, 'is not a question of this task');
  }
  for (const [key, question] of byId) {
    const value = Object.hasOwn(fields, key) ? fields[key] : null;
    if (value === null || value === undefined || value === '') {
      errors.add(`fields.${key}`, "can't be blank");
      continue;
    }
    const problem = problemOf(question, value);
    if (problem) {
      errors.add(`fields.${key}`, problem);
      continue;
    }
    if (question.type === 'file') {
      const attachment = await findUserAttachment({ db }, owner.realmId, owner.userId, value as number);
      if (!attachment) errors.add(`fields.${key}`, 'is not an attachment of yours');
      else if (attachment.questionId !== null && attachment.questionId !== question.id) errors.add(`fields.${key}`, 'was uploaded for another question');
    }
    answers[key] = question.type === 'text' ? (value as string).trim() : value as string | number;
  }
  errors.throwIfAny();
  return answers;
}
