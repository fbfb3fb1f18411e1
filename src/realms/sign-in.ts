import { and, eq, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { recordEvent } from '../events/events.js';
import { UNKNOWN_ACCOUNT_HASH, verifyPassword } from '../security/passwords.js';
import type { Realm } from './realms.js';
import { endRealmSession, findSessionBySecret, isLive, startRealmSession, type StartedSession } from './sessions.js';
import { realmUsers } from './tables.js';
import type { RealmUser } from './users.js';

/** Facts page: ten failed password sign-ins lock the user for fifteen minutes. */
export const MAX_FAILED_LOGINS = 10;
export const LOCK_MINUTES = 15;

export type SignInResult =
  | { ok: true; user: RealmUser; session: StartedSession }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; lockedUntil: Date };

/** Emails carry an "@" and usernames never do, so one identifier names at most one user. */
async function findByIdentifier(ctx: Context, realm: Realm, identifier: string): Promise<RealmUser | undefined> {
  const text = identifier.trim().toLowerCase();
  if (!text) return undefined;
  const match = text.includes('@') ? sql`lower(${realmUsers.email}) = ${text}` : sql`lower(${realmUsers.username}) = ${text}`;
  const [user] = await ctx.db.select().from(realmUsers).where(and(eq(realmUsers.realmId, realm.id), match));
  return user;
}

/** Counts a failure in one statement (two failures at once both count); the tenth locks. */
async function countFailure(ctx: Context, user: RealmUser, now: Date): Promise<Date | null> {
  const lockUntil = new Date(now.getTime() + LOCK_MINUTES * 60_000);
  const [row] = await ctx.db.update(realmUsers).set({
    failedLogins: sql`case when ${realmUsers.failedLogins} + 1 >= ${MAX_FAILED_LOGINS} then 0 else ${realmUsers.failedLogins} + 1 end`,
    lockedUntil: sql`case when ${realmUsers.failedLogins} + 1 >= ${MAX_FAILED_LOGINS} then ${lockUntil.toISOString()}::timestamptz else null end`,
  }).where(eq(realmUsers.id, user.id)).returning({ lockedUntil: realmUsers.lockedUntil });
  return row?.lockedUntil ?? null;
}

/**
 * Signs a realm user in with email or username and password. Every refusal looks the same from
 * outside (the same scrypt work is done for unknown users) except a lock, which the user is told of.
 * A success starts a fresh session and records `user_login_log`; a failure of a known user records
 * `user_login_attempt_failed_log`.
 */
export async function signInWithPassword(ctx: Context, realm: Realm, identifier: string, password: string): Promise<SignInResult> {
  const user = await findByIdentifier(ctx, realm, identifier);
  const matches = await verifyPassword(password, user?.passwordHash ?? UNKNOWN_ACCOUNT_HASH);
  if (!user) return { ok: false, reason: 'invalid' };
  const now = ctx.clock.now();
  const failed = () => recordEvent(ctx, { realmId: realm.id, userId: user.id, type: 'user_login_attempt_failed_log' });
  if (user.lockedUntil && user.lockedUntil > now) {
    await failed();
    return { ok: false, reason: 'locked', lockedUntil: user.lockedUntil };
  }
  if (!matches || !user.active || !user.passwordHash) {
    const lockedUntil = matches ? null : await countFailure(ctx, user, now);
    await failed();
    return lockedUntil ? { ok: false, reason: 'locked', lockedUntil } : { ok: false, reason: 'invalid' };
  }
  if (user.failedLogins || user.lockedUntil) {
    await ctx.db.update(realmUsers).set({ failedLogins: 0, lockedUntil: null }).where(eq(realmUsers.id, user.id));
  }
  const session = await startRealmSession(ctx, realm, user.id);
  await recordEvent(ctx, { realmId: realm.id, userId: user.id, type: 'user_login_log' });
  return { ok: true, user, session };
}

/**
 * Signs out the session a realm cookie names: it ends (with every access token tied to it) and
 * `user_logout_log` is recorded. A cookie naming no live session changes nothing.
 */
export async function signOut(ctx: Context, realm: Realm, cookie: string | undefined): Promise<boolean> {
  if (!cookie) return false;
  const session = await findSessionBySecret(ctx, realm.id, cookie);
  if (!session || !isLive(session, ctx.clock.now())) return false;
  await endRealmSession(ctx, session.id);
  await recordEvent(ctx, { realmId: realm.id, userId: session.userId, type: 'user_logout_log', impersonatorId: session.impersonatorId });
  return true;
}
