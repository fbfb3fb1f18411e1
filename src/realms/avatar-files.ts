import type { Context } from '../context.js';
import { removeAfterCommit, removeObjects } from '../storage/storage.js';
import type { AvatarValue } from '../tables/realms.js';

/**
 * An avatar is stored under the key avatars/<uuid>.<ext> and served at /uploads/avatars/<uuid>.<ext>;
 * its renditions beside it as <uuid>-64.webp and <uuid>-256.webp.
 */
export const AVATAR_URL_PREFIX = '/uploads/avatars/';
export const AVATAR_EXTENSIONS = ['jpg', 'png', 'gif', 'webp'];
export const AVATAR_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:\.(jpg|png|gif|webp)|-(64|256)\.webp)$/;

export const avatarKey = (name: string) => `avatars/${name}`;

/** The stored object a path refers to, when it is one of ours. */
function keyOf(path: string | null | undefined): string | null {
  const name = path?.startsWith(AVATAR_URL_PREFIX) ? path.slice(AVATAR_URL_PREFIX.length) : '';
  return AVATAR_FILE.test(name) ? avatarKey(name) : null;
}

/**
 * Removes the stored images of avatars that nothing refers to any more: after the commit that dropped
 * them, or `now` (an image stored for a change that failed).
 */
export async function removeAvatarObjects(ctx: Context, avatars: (AvatarValue | null)[], when: 'after commit' | 'now' = 'after commit'): Promise<void> {
  const keys = avatars.flatMap((a) => [a?.path, a?.small_path, a?.medium_path]).map(keyOf).filter((key): key is string => key !== null);
  await (when === 'now' ? removeObjects : removeAfterCommit)(ctx.storage, ctx.log, keys);
}
