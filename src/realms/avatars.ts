import { randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { installationAccount } from '../account/account.js';
import { checkUpload, extensionOf, type IncomingFile } from '../storage/checks.js';
import type { Realm } from './realms.js';
import { realmUsers, type AvatarValue } from '../tables/realms.js';
import { changedAttributes, findRealmUser, realmUserBody, realmUserEvent, userWithLock, type RealmUserBody } from './users.js';
import { fieldsOf } from './custom-fields.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';
import { AVATAR_EXTENSIONS, AVATAR_URL_PREFIX, avatarKey, removeAvatarObjects } from './avatar-files.js';
import { avatarRenditions, RENDITION_SIZES } from './avatar-renditions.js';

/**
 * Sets the user's avatar to `avatar` (null removes it) and answers the one it replaced. The user's row
 * is locked while the current avatar is read and swapped, so of concurrent changes each replaces what
 * the previous one set, and each replaced image is removed exactly once.
 */
async function swapAvatar(ctx: Context, realm: Realm, userId: number, avatar: AvatarValue | null): Promise<{ replaced: AvatarValue | null; user: RealmUserBody }> {
  const fields = await fieldsOf(ctx, realm.id);
  const now = ctx.clock.now();
  const swapped = await ctx.db.transaction(async (tx) => {
    const before = await findRealmUser(tx, realm, userId, true);
    const [{ lockedUntil, ...after }] = await tx.update(realmUsers).set({ avatar, updatedAt: now }).where(eq(realmUsers.id, userId))
      .returning(userWithLock(now));
    const user = realmUserBody(after, fields, lockedUntil);
    await emitWebhookEvent(ctx, tx, realmUserEvent('realm_user.updated', realm, user, changedAttributes(before, after)));
    return { replaced: before.avatar ?? null, user };
  });
  ctx.caches.changed('customers', `user:${userId}`);
  return swapped;
}

/**
 * Sets a user's avatar from an uploaded image: the extension must be an image type the account
 * allows, the content (by its magic bytes) must be that type, the size within the account's limit,
 * and the image readable (its renditions are made from it: avatar-renditions.ts). The new images are
 * stored first and the reference swapped after; the images replaced are removed after the commit, and
 * the new ones when the swap fails, so no image is left that nothing refers to.
 */
export async function setAvatar(ctx: ActingContext, realm: Realm, userId: number, upload: IncomingFile | undefined): Promise<RealmUserBody> {
  ctx.actor.assertHolds('realm.users.write', realm.uid);
  await findRealmUser(ctx.db, realm, userId);
  const account = await installationAccount(ctx);
  const file = await checkUpload(upload, {
    extensions: AVATAR_EXTENSIONS, allowedExtensions: account.allowedExtensions, maxBytes: account.uploadMaxBytes, kind: 'an avatar',
  });
  const renditions = await avatarRenditions(file.content, path.basename(file.fileName));
  const id = randomUUID();
  const name = `${id}.${extensionOf(file.fileName)}`;
  const avatar: AvatarValue = {
    id: randomInt(1, 2 ** 31 - 1),
    file_name: path.basename(file.fileName),
    path: `${AVATAR_URL_PREFIX}${name}`,
    small_path: `${AVATAR_URL_PREFIX}${id}-${RENDITION_SIZES.small}.webp`,
    medium_path: `${AVATAR_URL_PREFIX}${id}-${RENDITION_SIZES.medium}.webp`,
  };
  let swapped: Awaited<ReturnType<typeof swapAvatar>>;
  try {
    await ctx.storage.put(avatarKey(name), file.content);
    await ctx.storage.put(avatarKey(`${id}-${RENDITION_SIZES.small}.webp`), renditions.small);
    await ctx.storage.put(avatarKey(`${id}-${RENDITION_SIZES.medium}.webp`), renditions.medium);
    swapped = await swapAvatar(ctx, realm, userId, avatar);
  } catch (err) {
    await removeAvatarObjects(ctx, [avatar], 'now');
    throw err;
  }
  await removeAvatarObjects(ctx, [swapped.replaced]);
  return swapped.user;
}

export async function deleteAvatar(ctx: ActingContext, realm: Realm, userId: number): Promise<void> {
  ctx.actor.assertHolds('realm.users.write', realm.uid);
  await removeAvatarObjects(ctx, [(await swapAvatar(ctx, realm, userId, null)).replaced]);
}
