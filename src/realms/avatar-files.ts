import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../context.js';
import type { AvatarValue } from './tables.js';

/** Avatars are stored as DATA_DIR/uploads/avatars/<uuid>.<ext> and served under this path. */
export const AVATAR_URL_PREFIX = '/uploads/avatars/';
export const AVATAR_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|gif|webp)$/;

export const avatarsDir = (ctx: Pick<Context, 'config'>) => path.join(ctx.config.dataDir, 'uploads', 'avatars');

/** Deletes the stored file of an avatar that is no longer used; a missing file is fine. */
export async function removeAvatarFile(ctx: Context, avatar: AvatarValue | null): Promise<void> {
  const name = avatar?.path.startsWith(AVATAR_URL_PREFIX) ? avatar.path.slice(AVATAR_URL_PREFIX.length) : '';
  if (!AVATAR_FILE.test(name)) return;
  await fs.rm(path.join(avatarsDir(ctx), name), { force: true }).catch((err) => {
    ctx.log.warn({ file: name, reason: (err as Error).message }, 'could not delete an avatar file');
  });
}
