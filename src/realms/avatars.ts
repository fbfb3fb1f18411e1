import { randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { getAccount } from '../account/account.js';
import { notFound } from '../http/errors.js';
import { checkUpload, extensionOf, type IncomingFile } from '../storage/checks.js';
import type { Realm } from './realms.js';
import { realmUsers, type AvatarValue } from './tables.js';
import { findRealmUser, getRealmUser, type RealmUserBody } from './users.js';
import { AVATAR_EXTENSIONS, AVATAR_URL_PREFIX, avatarKey, removeAvatarObjects } from './avatar-files.js';

/**
 * Sets the user's avatar to `avatar` (null removes it) and answers the one it replaced. The user's row
 * is locked while the current avatar is read and swapped, so of concurrent changes each replaces what
 * the previous one set, and each replaced image is removed exactly once.
 */
async function swapAvatar(ctx: Context, realm: Realm, userId: number, avatar: AvatarValue | null): Promise<AvatarValue | null> {
  const replaced = await ctx.db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const [user] = await tx.select({ avatar: realmUsers.avatar }).from(realmUsers)
      .where(and(eq(realmUsers.id, userId), eq(realmUsers.realmId, realm.id))).for('update');
    if (!user) throw notFound('User');
    await tx.update(realmUsers).set({ avatar, updatedAt: ctx.clock.now() }).where(eq(realmUsers.id, userId));
    return user.avatar ?? null;
  });
  ctx.caches.changed('customers', `user:${userId}`);
  return replaced;
}

/**
 * Sets a user's avatar from an uploaded image: the extension must be an image type the account
 * allows, the content (by its magic bytes) must be that type, and the size within the account's
 * limit. No image library is used, so the original is reused for the small and medium renditions.
 * The new image is stored first and the reference swapped after; the image replaced is removed after
 * the commit, and the new one when the swap fails, so no image is left that nothing refers to.
 */
export async function setAvatar(ctx: Context, realm: Realm, userId: number, upload: IncomingFile | undefined): Promise<RealmUserBody> {
  await findRealmUser(ctx.db, realm, userId);
  const account = await getAccount(ctx);
  const file = await checkUpload(upload, {
    extensions: AVATAR_EXTENSIONS, allowedExtensions: account.allowedExtensions, maxBytes: account.uploadMaxBytes, kind: 'an avatar',
  });
  const name = `${randomUUID()}.${extensionOf(file.fileName)}`;
  await ctx.storage.put(avatarKey(name), file.content);
  const avatar: AvatarValue = {
    id: randomInt(1, 2 ** 31 - 1),
    file_name: path.basename(file.fileName),
    path: `${AVATAR_URL_PREFIX}${name}`,
    small_path: null,
    medium_path: null,
  };
  let replaced: AvatarValue | null;
  try {
    replaced = await swapAvatar(ctx, realm, userId, avatar);
  } catch (err) {
    await removeAvatarObjects(ctx, [avatar], 'now');
    throw err;
  }
  await removeAvatarObjects(ctx, [replaced]);
  return getRealmUser(ctx, realm, userId);
}

export async function deleteAvatar(ctx: Context, realm: Realm, userId: number): Promise<void> {
  await removeAvatarObjects(ctx, [await swapAvatar(ctx, realm, userId, null)]);
}
