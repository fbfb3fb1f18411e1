import { eq } from 'drizzle-orm';
import type { ActingContext } from '../../admin-auth/principal.js';
import type { Context } from '../../context.js';
import type { Lockables } from '../../locks/lockables.js';
import { notFound } from '../../errors/index.js';
import { assertUnlocked, dropLocks } from '../../locks/locks.js';
import { contentEntries, contentSpaces } from '../../tables/content.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A content entry is locked by its uuid, in the scope of its space. */
export const ENTRY_LOCKABLES: Lockables = {
  content_entry: {
    read: 'content.read',
    write: 'content.write',
    takeOver: 'content.publish',
    find: async (ctx: Context, id: string) => {
      if (!UUID.test(id)) return null;
      const [row] = await ctx.db.select({ id: contentEntries.uuid, scope: contentSpaces.uid }).from(contentEntries)
        .innerJoin(contentSpaces, eq(contentSpaces.id, contentEntries.spaceId)).where(eq(contentEntries.uuid, id.toLowerCase()));
      return row ?? null;
    },
  },
};

const entryResource = (uuid: string) => ({ type: 'content_entry', id: uuid.toLowerCase() });

/**
 * In an entry write's transaction: locks the entry's row (saves, publishes and deletes of one entry take
 * turns, always in this order: the entry's row, then its edit lock), then checks the edit lock.
 */
export async function holdUnlockedEntry(ctx: ActingContext, entry: { id: number; uuid: string }, override: boolean): Promise<void> {
  const [row] = await ctx.db.select({ id: contentEntries.id }).from(contentEntries).where(eq(contentEntries.id, entry.id)).for('update');
  if (!row) throw notFound('Entry');
  await assertUnlocked(ctx, ENTRY_LOCKABLES, entryResource(entry.uuid), override);
}

export const dropEntryLocks = (ctx: Pick<Context, 'db'>, uuid: string) => dropLocks(ctx, entryResource(uuid));
