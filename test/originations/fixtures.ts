import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { businessEvents } from '../../src/tables/events.js';
import { answerAttachments } from '../../src/tables/originations.js';
import { realms } from '../../src/tables/realms.js';
import type { Harness } from '../helpers/harness.js';

export const NOT_FOUND = {};

/** Three steps: a form (text, number, date, choice, file), a review with content, a validation and a confirmation. */
export const LOAN = {
  name: 'Personal loan',
  deadline_days: 10,
  steps: [
    {
      name: 'Your details',
      tasks: [{
        name: 'About you', type: 'input', questions: [
          { label: 'Full name', type: 'text' },
          { label: 'Monthly income', type: 'number' },
          { label: 'Birth date', type: 'date' },
          { label: 'Purpose', type: 'choice', options: ['car', 'home'] },
          { label: 'Payslip', type: 'file' },
        ],
      }],
    },
    { name: 'Review', tasks: [{ name: 'Documents review', type: 'pending_review', content: 'We are checking your documents.' }, { name: 'Identity check', type: 'validation' }] },
    { name: 'Signature', tasks: [{ name: 'Accept the terms', type: 'confirmation' }] },
  ],
};

export interface OriginationBody {
  id: number;
  uuid: string;
  name: string;
  deadline_days: number | null;
  steps: { name: string; tasks: { uid: string; name: string; type: string; content: string | null; questions: { id: number; label: string; type: string; options: string[] }[] }[] }[];
}

export function admin(h: Harness, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token?: string | null) {
  return h.request({ method, url: `/api/admin${url}`, payload: payload as object, token });
}

export async function makeOrigination(h: Harness, realmUid: string, body: Record<string, unknown> = LOAN): Promise<OriginationBody> {
  const res = await admin(h, 'POST', `/customers/${realmUid}/originations`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export const tasksOf = (origination: OriginationBody) => origination.steps.flatMap((s) => s.tasks);

/** Starts a submission for the user as the owner; answers its body. */
export async function startFor(h: Harness, realmUid: string, originationId: number, userId: number, extra: Record<string, unknown> = {}) {
  const res = await admin(h, 'POST', `/customers/${realmUid}/originations/${originationId}/submissions`, { user_id: userId, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A customers API request with the user's credential headers. */
export function asUser(h: Harness, headers: Record<string, string>, method: 'GET' | 'PUT', realmUid: string, path: string, payload?: unknown) {
  return h.request({ method, url: `/api/customers/realms/${realmUid}${path}`, token: null, headers, payload: payload as object });
}

/**
 * An attachment row as the upload route (POST /private_upload/answer, built apart) writes it: the
 * answers only refer to its id.
 */
export async function attachmentOf(h: Harness, realmUid: string, userId: number, questionId: number | null = null): Promise<number> {
  const [realm] = await h.ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.uid, realmUid));
  const uuid = randomUUID();
  const [row] = await h.ctx.db.insert(answerAttachments).values({
    uuid, realmId: realm.id, userId, questionId, name: 'payslip.pdf', size: 3, contentType: 'application/pdf', storageKey: `attachments/${uuid}.pdf`,
  }).returning({ id: answerAttachments.id });
  return row.id;
}

export function eventsOf(h: Harness, userId: number, type: string) {
  return h.ctx.db.select().from(businessEvents).where(and(eq(businessEvents.userId, userId), eq(businessEvents.type, type)));
}
