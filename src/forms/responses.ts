import { and, asc, desc, eq, gt, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { invalidField, notFound } from '../errors/index.js';
import { removeAfterCommit, type StoredObject } from '../storage/storage.js';
import { formResponses, forms, type FormResponseRow, type StoredFile } from '../tables/forms.js';
import { realms } from '../tables/realms.js';
import { formsWithPersonalReach, requireForm, type FormWithRealm } from './forms.js';
import { announceResponse } from './respond.js';
import type { ResponseListQuery, ResponseModel } from './schema.js';

export type ResponseBody = Static<typeof ResponseModel>;
type Query = Static<typeof ResponseListQuery>;

export const responseBody = (formUid: string, r: FormResponseRow): ResponseBody => ({
  id: r.id, form_uid: formUid, status: r.status, spam_reason: r.spamReason, answers: r.answers, email: r.email, user_id: r.userId,
  locale: r.locale, submitted_at: r.submittedAt.toISOString(),
});

/** The filters of the list and the export: status, a date range, and an answer (equal, or among a multiple choice's). */
export function responseFilter(formId: number, query: Omit<Query, 'page' | 'per_page'>): SQL | undefined {
  if (query.field !== undefined && query.value === undefined) throw invalidField('value', "can't be blank when field is given");
  const answer = query.field !== undefined && query.value !== undefined
    ? sql`(${formResponses.answers} ->> ${query.field} = ${query.value}
        or (jsonb_typeof(${formResponses.answers} -> ${query.field}) = 'array' and ${formResponses.answers} -> ${query.field} ? ${query.value}))`
    : undefined;
  return and(
    eq(formResponses.formId, formId),
    query.status ? eq(formResponses.status, query.status) : undefined,
    query.from ? gte(formResponses.submittedAt, new Date(query.from)) : undefined,
    query.to ? lte(formResponses.submittedAt, new Date(query.to)) : undefined,
    answer,
  );
}

/*
 * The operations on one form's responses find the form themselves, with the permission they need on it
 * and a realm's users' (`requireForm`): 404 `Form`, then 403.
 */

/** Newest first. */
export async function listResponses(ctx: ActingContext, formUid: string, page: Page, query: Query): Promise<{ items: ResponseBody[]; total: number }> {
  const row = await requireForm(ctx, formUid, 'forms.read', true);
  const where = responseFilter(row.form.id, query);
  const rows = await ctx.db.select({ response: formResponses, total: totalCount }).from(formResponses).where(where)
    .orderBy(desc(formResponses.submittedAt), desc(formResponses.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, formResponses, where);
  return { items: rows.map((r) => responseBody(row.form.uid, r.response)), total };
}

/** One page of the export after the response `afterId`, oldest first (keyset: no offset to walk over). */
export function responsesAfter(ctx: Context, where: SQL | undefined, afterId: number, size: number): Promise<FormResponseRow[]> {
  return ctx.db.select().from(formResponses).where(and(where, gt(formResponses.id, afterId))).orderBy(asc(formResponses.id)).limit(size);
}

async function responseOf(ctx: Context, row: FormWithRealm, id: number): Promise<FormResponseRow> {
  const [response] = await ctx.db.select().from(formResponses).where(and(eq(formResponses.formId, row.form.id), eq(formResponses.id, id)));
  if (!response) throw notFound('Response');
  return response;
}

export async function showResponse(ctx: ActingContext, formUid: string, id: number): Promise<ResponseBody> {
  const row = await requireForm(ctx, formUid, 'forms.read', true);
  return responseBody(row.form.uid, await responseOf(ctx, row, id));
}

/** A response's file by its field's name, for an admin who may read the response (404 `File` when it has none, or it is gone). */
export async function responseFile(ctx: ActingContext, formUid: string, id: number, field: string): Promise<{ file: StoredFile; object: StoredObject }> {
  const row = await requireForm(ctx, formUid, 'forms.read', true);
  const response = await responseOf(ctx, row, id);
  const file = Object.hasOwn(response.files, field) ? response.files[field] : undefined;
  // Erased or deleted between the two reads: gone, as it is to everyone from now on.
  const object = file && await ctx.storage.get(file.key);
  if (!file || !object) throw notFound('File');
  return { file, object };
}

const storedKeys = (rows: Pick<FormResponseRow, 'files'>[]) => rows.flatMap((r) => Object.values(r.files).map((f) => f.key));

export async function deleteResponse(ctx: ActingContext, formUid: string, id: number): Promise<void> {
  const row = await requireForm(ctx, formUid, 'forms.manage', true);
  const [gone] = await ctx.db.delete(formResponses).where(and(eq(formResponses.formId, row.form.id), eq(formResponses.id, id))).returning();
  if (!gone) throw notFound('Response');
  await removeAfterCommit(ctx.storage, ctx.log, storedKeys([gone]));
}

/**
 * An admin's verdict. A caught response marked `received` counts toward the maximum (even past it) and is
 * announced then (notification mails and the webhook; the respondent gets no late confirmation); one
 * marked spam stops counting.
 */
export async function markResponse(ctx: ActingContext, formUid: string, id: number, status: 'received' | 'spam'): Promise<ResponseBody> {
  const row = await requireForm(ctx, formUid, 'forms.manage', true);
  const current = await responseOf(ctx, row, id);
  if (current.status === status) return responseBody(row.form.uid, current);
  const [response] = await ctx.db.update(formResponses).set({ status, spamReason: status === 'spam' ? 'marked' : null })
    .where(eq(formResponses.id, id)).returning();
  if (status === 'received') {
    const [realm] = row.form.realmId === null ? [] : await ctx.db.select({ name: realms.name }).from(realms).where(eq(realms.id, row.form.realmId));
    await announceResponse(ctx, row, response, realm?.name ?? null, false);
  }
  return responseBody(row.form.uid, response);
}

/** Deletes every response of one address or one realm user, across the forms the actor manages and may see respondents of. */
export async function eraseResponses(ctx: ActingContext, input: { email?: string; user_id?: number }): Promise<number> {
  if ((input.email === undefined) === (input.user_id === undefined)) throw invalidField('base', 'give either email or user_id');
  const who = input.email !== undefined ? eq(formResponses.email, input.email.trim().toLowerCase()) : eq(formResponses.userId, input.user_id!);
  const reach = formsWithPersonalReach(ctx);
  const inReach = reach ? inArray(formResponses.formId, ctx.db.select({ id: forms.id }).from(forms).where(reach)) : undefined;
  const gone = await ctx.db.delete(formResponses).where(and(who, inReach)).returning({ files: formResponses.files });
  await removeAfterCommit(ctx.storage, ctx.log, storedKeys(gone));
  return gone.length;
}
