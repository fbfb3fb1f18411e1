import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { installationAccount } from '../account/account.js';
import { attachmentNotFound, fileQuestionNotFound } from '../errors/index.js';
import type { FilePart } from '../http/multipart.js';
import { INT32_MAX } from '../http/models.js';
import { isFileQuestion, type AnswerAttachment } from '../originations/attachments.js';
import { answerAttachments } from '../tables/originations.js';
import type { Customer } from '../realms/credential.js';
import type { Realm } from '../realms/realms.js';
import { CHECKED_EXTENSIONS, FileInspection, isImage, extensionOf, mediaTypeOf, missingFile, refuseFile } from '../storage/checks.js';
import { storeInspected } from '../storage/receive.js';
import { removeObjects, type StoredObject } from '../storage/storage.js';
import type { AttachmentBody } from './schema.js';

/** Where the owner reads the file: the customers API, with the owner's credential. */
export const attachmentUrl = (realmUid: string, uuid: string) =>
  `/api/customers/realms/${encodeURIComponent(realmUid)}/private_upload/answer/${uuid}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_MAX = 255;

/** The limits uploads are read with: the account's. */
export async function uploadLimits(ctx: Context): Promise<{ maxBytes: number; allowedExtensions: string[] }> {
  const account = await installationAccount(ctx);
  return { maxBytes: account.uploadMaxBytes, allowedExtensions: account.allowedExtensions };
}

/** A file as it was received: stored under `key` when `reasons` is empty, not stored at all otherwise. */
export interface ReceivedFile {
  uuid: string;
  key: string;
  name: string;
  size: number;
  contentType: string;
  reasons: string[];
}

/**
 * Stores an uploaded file while it arrives, checked as it goes (storage/checks.ts): an extension the
 * account allows among those whose content can be checked, content that is what the extension says, at
 * most the account's size. The key is made here (under `folder`), never from the client's name.
 */
export async function receiveFile(
  ctx: Context, file: FilePart, limits: { maxBytes: number; allowedExtensions: string[] }, folder = 'attachments',
): Promise<ReceivedFile> {
  const inspection = new FileInspection(file.fileName, { extensions: CHECKED_EXTENSIONS, ...limits });
  const uuid = randomUUID();
  const key = `${folder}/${uuid}`;
  const reasons = await storeInspected(ctx.storage, key, file.content, inspection, file.truncated);
  if (file.fileName.length > NAME_MAX) reasons.push(`${inspection.name}: name is longer than ${NAME_MAX} characters`);
  return { uuid, key, name: file.fileName, size: inspection.bytes, contentType: mediaTypeOf(extensionOf(file.fileName)), reasons };
}

/** Removes a received file's object, when it was stored (after a failure that keeps it from being recorded). */
export async function discardFile(ctx: Context, file: ReceivedFile): Promise<void> {
  if (!file.reasons.length) await removeObjects(ctx.storage, ctx.log, [file.key]);
}

export function attachmentBody(realmUid: string, row: AnswerAttachment): AttachmentBody {
  return { id: row.id, uuid: row.uuid, name: row.name, size: row.size, url: attachmentUrl(realmUid, row.uuid) };
}

/**
 * Records a received file as the user's attachment (spec 2.12, 4.3 rule 4). A `question_id` must name a
 * file question of the realm (404 otherwise, checked first); a missing or refused file answers 422. The
 * stored object is removed whenever the record is not made (a refusal, the user deleted meanwhile).
 */
export async function createAttachment(ctx: Context, customer: Customer, file: ReceivedFile | undefined, questionId: string | undefined): Promise<AttachmentBody> {
  try {
    const question = questionId === undefined ? null : await fileQuestionOf(ctx, customer, questionId);
    if (!file) throw missingFile();
    if (file.reasons.length) refuseFile(file.reasons);
    const [row] = await ctx.db.insert(answerAttachments).values({
      uuid: file.uuid, realmId: customer.realm.id, userId: customer.user.id, questionId: question,
      name: file.name, size: file.size, contentType: file.contentType, storageKey: file.key, createdAt: ctx.clock.now(),
    }).returning();
    return attachmentBody(customer.realm.uid, row);
  } catch (err) {
    if (file) await discardFile(ctx, file);
    throw err;
  }
}

async function fileQuestionOf(ctx: Context, customer: Customer, questionId: string): Promise<number> {
  const id = /^[1-9][0-9]{0,9}$/.test(questionId.trim()) ? Number(questionId.trim()) : 0;
  if (id < 1 || id > INT32_MAX || !(await isFileQuestion(ctx, customer.realm.id, id))) throw fileQuestionNotFound();
  return id;
}

/**
 * The attachment with this uuid among those `owner` selects (a user's, or a realm's). A realm's (the
 * reviewers' read) is also found by its integer id, the value of a file answer in a submission.
 */
async function findAttachment(ctx: Context, uuid: string, owner: { realmId: number; userId?: number }): Promise<AnswerAttachment | null> {
  const byId = owner.userId === undefined && /^[1-9][0-9]{0,9}$/.test(uuid) && Number(uuid) <= INT32_MAX;
  if (!byId && !UUID.test(uuid)) return null;
  const [row] = await ctx.db.select().from(answerAttachments).where(and(
    byId ? eq(answerAttachments.id, Number(uuid)) : eq(answerAttachments.uuid, uuid), eq(answerAttachments.realmId, owner.realmId),
    owner.userId === undefined ? undefined : eq(answerAttachments.userId, owner.userId),
  ));
  return row ?? null;
}

export interface AttachmentFile {
  attachment: AnswerAttachment;
  object: StoredObject;
  /** Images are shown in the browser; everything else is downloaded. */
  inline: boolean;
}

/** Admin: the file of any attachment of the realm's users; null when there is none. */
export async function readAttachment(ctx: ActingContext, realm: Realm, uuid: string): Promise<AttachmentFile | null> {
  ctx.actor.assertHolds('realm.originations.read', realm.uid);
  return attachmentFile(ctx, uuid, { realmId: realm.id });
}

/** An attachment's file, for its owner (`userId`) or for an admin of its realm; null when there is none (no permission asked here). */
export async function attachmentFile(ctx: Context, uuid: string, owner: { realmId: number; userId?: number }): Promise<AttachmentFile | null> {
  const attachment = await findAttachment(ctx, uuid, owner);
  // Deleted between the lookup and the read: gone, as it is to everyone from now on.
  const object = attachment && await ctx.storage.get(attachment.storageKey);
  if (!attachment || !object) return null;
  return { attachment, object, inline: isImage(extensionOf(attachment.name)) };
}

/**
 * Deletes one of the user's attachments: the record, then its stored file, at once (spec 3). An answer
 * that named it is left without a file: answers read attachments that still exist.
 */
export async function deleteAttachment(ctx: Context, customer: Customer, uuid: string): Promise<void> {
  if (!UUID.test(uuid)) throw attachmentNotFound();
  const [row] = await ctx.db.delete(answerAttachments).where(and(
    eq(answerAttachments.uuid, uuid), eq(answerAttachments.realmId, customer.realm.id), eq(answerAttachments.userId, customer.user.id),
  )).returning({ storageKey: answerAttachments.storageKey });
  if (!row) throw attachmentNotFound();
  await removeObjects(ctx.storage, ctx.log, [row.storageKey]);
}

/**
 * Drops the attachments of a user, or of every user of a realm, in the transaction that deletes them,
 * and answers their storage keys, to be removed after the commit. The caller has locked the user's (or
 * the realm's) row first: an attachment's insert checks that row's key, so none is added meanwhile.
 */
export async function dropAttachments(tx: Db, owner: { userId: number } | { realmId: number }): Promise<string[]> {
  const rows = await tx.delete(answerAttachments)
    .where('userId' in owner ? eq(answerAttachments.userId, owner.userId) : eq(answerAttachments.realmId, owner.realmId))
    .returning({ storageKey: answerAttachments.storageKey });
  return rows.map((row) => row.storageKey);
}
