import type { Context } from '../context.js';
import { removeAfterCommit, removeObjects } from '../storage/storage.js';
import type { AvatarValue } from '../tables/realms.js';

/** An avatar is stored under the key avatars/<uuid>.<ext> and served at /uploads/avatars/<uuid>.<ext>. */
export const AVATAR_URL_PREFIX = '/uploads/avatars/';
export const AVATAR_EXTENSIONS = ['jpg', 'png', 'gif', 'webp'];
export const AVATAR_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|gif|webp)$/;

export const avatarKey = (name: string) => `avatars/${name}`;

/** The stored object an avatar refers to, when it refers to one of ours. */
function keyOf(avatar: AvatarValue | null): string | null {
  const name = avatar?.path.startsWith(AVATAR_URL_PREFIX) ? avatar.path.slice(AVATAR_URL_PREFIX.length) : '';
  return AVATAR_FILE.test(name) ? avatarKey(name) : null;
}

/**
 * Removes the stored images of avatars that nothing refers to any more: after the commit that dropped
 * them, or `now` (an image stored for a change that failed).
 */
export async function removeAvatarObjects(ctx: Context, avatars: (AvatarValue | null)[], when: 'after commit' | 'now' = 'after commit'): Promise<void> {
  const keys = avatars.map(keyOf).filter((key): key is string => key !== null);
  await (when === 'now' ? removeObjects : removeAfterCommit)(ctx.storage, ctx.log, keys);
}
