import type { Db } from '../db/connect.js';

/** Whose rows go: one user's, or those of every user of a realm. */
export type UsersGone = { userId: number } | { realmId: number };

/**
 * What a feature above realms deletes with a realm's users, in the deleting transaction (the user's or the
 * realm's row is locked): it answers the storage keys to remove once that commits. Features register at app
 * build time, so that realms does not import them.
 */
export type UserCleanup = (tx: Db, gone: UsersGone) => Promise<string[]>;

const cleanups = new Set<UserCleanup>();

export function onUsersDeleted(cleanup: UserCleanup): void {
  cleanups.add(cleanup);
}

/** Runs every registered cleanup; answers the storage keys they freed. */
export async function cleanUpAfterUsers(tx: Db, gone: UsersGone): Promise<string[]> {
  const keys: string[] = [];
  for (const cleanup of cleanups) keys.push(...await cleanup(tx, gone));
  return keys;
}
