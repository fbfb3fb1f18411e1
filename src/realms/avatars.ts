import { randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Context } from '../context.js';
import { getAccount } from '../account/account.js';
import { AppError, invalid } from '../http/errors.js';
import type { Realm } from './realms.js';
import { realmUsers, type AvatarValue } from './tables.js';
import { findRealmUser, getRealmUser, type RealmUserBody } from './users.js';
import { AVATAR_URL_PREFIX, avatarsDir, removeAvatarFile } from './avatar-files.js';

/** The image types an avatar may be, by the extension its content must match. */
export const AVATAR_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };
const SAME_EXTENSION: Record<string, string> = { jpeg: 'jpg' };

export interface Upload {
  fileName: string;
  content: Buffer;
  /** The upload went past the account's size limit and was cut. */
  truncated: boolean;
}

const extensionOf = (fileName: string) => {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  return SAME_EXTENSION[ext] ?? ext;
};

/** Every reason the upload is refused, each starting with the file's name; empty when it is fine. */
async function problems(ctx: Context, upload: Upload): Promise<string[]> {
  const account = await getAccount(ctx);
  const name = upload.fileName || 'file';
  const declared = extensionOf(upload.fileName);
  const reasons: string[] = [];
  if (upload.truncated) reasons.push(`${name}: is larger than the maximum of ${account.uploadMaxBytes} bytes`);
  const allowed = account.allowedExtensions.map((e) => SAME_EXTENSION[e] ?? e);
  if (!AVATAR_TYPES[declared] || !allowed.includes(declared)) {
    reasons.push(`${name}: extension is not allowed (an avatar is one of ${Object.keys(AVATAR_TYPES).filter((e) => allowed.includes(e)).join(', ')})`);
  } else if (!upload.truncated) {
    const detected = await fileTypeFromBuffer(upload.content);
    if (!detected || detected.mime !== AVATAR_TYPES[declared]) reasons.push(`${name}: content does not match the extension`);
  }
  return reasons;
}

/**
 * Sets a user's avatar from an uploaded image: the extension must be an image type the account
 * allows, the content (by its magic bytes) must be that type, and the size within the account's
 * limit. No image library is used, so the original is reused for the small and medium renditions.
 */
export async function setAvatar(ctx: Context, realm: Realm, userId: number, upload: Upload | undefined): Promise<RealmUserBody> {
  const user = await findRealmUser(ctx.db, realm, userId);
  if (!upload || (!upload.content.length && !upload.truncated)) throw invalid([{ field: 'file', messages: ["can't be blank"] }]);
  const reasons = await problems(ctx, upload);
  if (reasons.length) throw new AppError(422, reasons, [{ field: 'file', messages: reasons }]);
  const stored = `${randomUUID()}.${extensionOf(upload.fileName)}`;
  const dir = avatarsDir(ctx);
  await fs.mkdir(dir, { recursive: true });
  const temporary = path.join(dir, `.${stored}.part`);
  await fs.writeFile(temporary, upload.content);
  await fs.rename(temporary, path.join(dir, stored));
  const avatar: AvatarValue = {
    id: randomInt(1, 2 ** 31 - 1),
    file_name: path.basename(upload.fileName),
    path: `${AVATAR_URL_PREFIX}${stored}`,
    small_path: null,
    medium_path: null,
  };
  try {
    await ctx.db.update(realmUsers).set({ avatar, updatedAt: ctx.clock.now() }).where(eq(realmUsers.id, user.id));
  } catch (err) {
    await fs.rm(path.join(dir, stored), { force: true });
    throw err;
  }
  ctx.caches.changed('customers', `user:${user.id}`);
  await removeAvatarFile(ctx, user.avatar ?? null);
  return getRealmUser(ctx, realm, user.id);
}

export async function deleteAvatar(ctx: Context, realm: Realm, userId: number): Promise<void> {
  const user = await findRealmUser(ctx.db, realm, userId);
  await ctx.db.update(realmUsers).set({ avatar: null, updatedAt: ctx.clock.now() }).where(eq(realmUsers.id, user.id));
  ctx.caches.changed('customers', `user:${user.id}`);
  await removeAvatarFile(ctx, user.avatar ?? null);
}
