import { and, eq, sql } from 'drizzle-orm';
import { attemptSucceeded, beginAttempt } from '../attempts/limit.js';
import { SIGN_IN_LIMIT, signInSubject } from './sign-in-limit.js';
import type { Context } from '../context.js';
import { recordEvent } from '../events/events.js';
import { UNKNOWN_ACCOUNT_HASH, verifyPassword } from '../security/passwords.js';
import type { Realm } from './realms.js';
import { resolveSession } from './credential.js';
import { endRealmSession, startRealmSession, type StartedSession } from './sessions.js';
import { realmUsers } from './tables.js';
import type { RealmUser } from './users.js';

export type SignInResult =
  | { ok: true; user: RealmUser; session: StartedSession }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; lockedUntil: Date | null };

/** Emails carry an "@" and usernames never do, so one identifier names at most one user. */
export async function findByIdentifier(ctx: Context, realm: Realm, identifier: string): Promise<RealmUser | undefined> {
  const text = identifier.trim().toLowerCase();
  if (!text) return undefined;
  const match = text.includes('@') ? sql`lower(${realmUsers.email}) = ${text}` : sql`lower(${realmUsers.username}) = ${text}`;
  const [user] = await ctx.db.select().from(realmUsers).where(and(eq(realmUsers.realmId, realm.id), match));
  return user;
}

/**
 * Signs a realm user in with email or username and password. Every refusal looks the same from
 * outside (unknown names are counted, and cost the same scrypt work) except a lock, which the user is
 * told of. A success starts a fresh session and records `user_login_log`; a failure of a known user
 * records `user_login_attempt_failed_log`.
 */
export async function signInWithPassword(ctx: Context, realm: Realm, identifier: string, password: string): Promise<SignInResult> {
  const user = await findByIdentifier(ctx, realm, identifier);
  const subject = signInSubject(realm.id, user, identifier);
  const failed = () => user && recordEvent(ctx, { realmId: realm.id, userId: user.id, type: 'user_login_attempt_failed_log' });
  const attempt = await beginAttempt(ctx, SIGN_IN_LIMIT, subject);
  if (!attempt.allowed) {
    await failed();
    return { ok: false, reason: 'locked', lockedUntil: attempt.lockedUntil };
  }
  const matches = await verifyPassword(password, user?.passwordHash ?? UNKNOWN_ACCOUNT_HASH);
  if (!user || !matches || !user.active || !user.passwordHash) {
    await failed();
    return { ok: false, reason: 'invalid' };
  }
  await attemptSucceeded(ctx, SIGN_IN_LIMIT, subject);
  const session = await startRealmSession(ctx, realm, user.id);
  await recordEvent(ctx, { realmId: realm.id, userId: user.id, type: 'user_login_log' });
  return { ok: true, user, session };
}

/**
 * Signs out the session a realm cookie names: it ends (with every access token tied to it) and
 * `user_logout_log` is recorded. A cookie naming no live session changes nothing.
 */
export async function signOut(ctx: Context, realm: Realm, cookie: string | undefined): Promise<boolean> {
  const found = await resolveSession(ctx, realm.uid, cookie);
  const customer = found?.resolution;
  if (typeof customer !== 'object') return false;
  await endRealmSession(ctx, customer.session.id);
  await recordEvent(ctx, { realmId: realm.id, userId: customer.user.id, type: 'user_logout_log', impersonatorId: customer.session.impersonatorId });
  return true;
}
