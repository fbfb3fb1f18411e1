import { and, eq, gt, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { realmSessions } from '../tables/realms.js';
import { delegatedTokens } from '../tables/delegation.js';

/** One cookie per realm, so that sessions of two realms in one browser stay apart. */
export const realmCookieName = (realmUid: string) => `atrium_realm_${realmUid}`;

export interface SessionRealm {
  id: number;
  sessionLifetimeMinutes: number;
}

export interface StartedSession {
  id: number;
  /** The cookie value; only its hash is stored. */
  secret: string;
  expiresAt: Date;
}

const lifetimeMs = (realm: SessionRealm) => realm.sessionLifetimeMinutes * 60_000;

/** Who opens a session: the browser (its raw User-Agent header) and, for impersonation, the admin. */
export interface SessionOrigin {
  userAgent?: string | string[];
  impersonatorId?: number | null;
  /** How the user proved who they are, as RFC 8176 `amr` values: `pwd`, `otp`. */
  authMethods?: string[];
}

export const USER_AGENT_LIMIT = 500;

/**
 * The User-Agent kept with a session: without NUL characters (a text column refuses them), cut to
 * 500 characters without splitting a surrogate pair; null when none was sent.
 */
export function keptUserAgent(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return null;
  let text = value.replaceAll('\0', '').trim();
  if (text.length > USER_AGENT_LIMIT) text = text.slice(0, USER_AGENT_LIMIT).replace(/[\uD800-\uDBFF]$/, '');
  return text || null;
}

/** A new session's row (its secret only hashed) and the secret for the cookie. Opening it is its first use. */
export function newSession(ctx: Context, realm: SessionRealm, userId: number, origin: SessionOrigin = {}) {
  const secret = randomSecret();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + lifetimeMs(realm));
  return {
    secret,
    row: {
      realmId: realm.id, userId, sessionHash: hashSecret(secret), expiresAt, impersonatorId: origin.impersonatorId ?? null,
      userAgent: keptUserAgent(origin.userAgent), authMethods: origin.authMethods ?? [], lastUsedAt: now, createdAt: now,
    },
  };
}

/** A fresh session with a fresh random id: never reuses one the browser brought (no fixation). */
export async function startRealmSession(ctx: Context, realm: SessionRealm, userId: number, origin: SessionOrigin = {}): Promise<StartedSession> {
  const { secret, row: values } = newSession(ctx, realm, userId, origin);
  const [row] = await ctx.db.insert(realmSessions).values(values).returning({ id: realmSessions.id });
  return { id: row.id, secret, expiresAt: values.expiresAt };
}

export interface LiveSession {
  id: number;
  userId: number;
  expiresAt: Date;
  revokedAt: Date | null;
  impersonatorId: number | null;
  lastUsedAt: Date | null;
  /** When the user signed in: an ID token's auth_time, and what max_age is measured from. */
  createdAt: Date;
}

export const isLive = (session: Pick<LiveSession, 'expiresAt' | 'revokedAt'>, now: Date) =>
  !session.revokedAt && session.expiresAt > now;

/** How often a session in use is written back (its sliding expiry and its last use): at most once a minute. */
export const TOUCH_INTERVAL_MS = 60_000;

/** Whether a use of the session now is to be written back (`touchSession`). */
export const isDueForTouch = (session: Pick<LiveSession, 'lastUsedAt'>, now: Date) =>
  !session.lastUsedAt || now.getTime() - session.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS;

/**
 * A use of the session: it is renewed for the realm's lifetime (sliding expiry), never past `until`, and its last
 * use is recorded. To spare a write on every request, both are stored only once a minute has passed since
 * the last stored use, and the UPDATE's own condition keeps simultaneous uses (of this process or
 * another) to one write.
 */
export async function touchSession(ctx: Context, realm: SessionRealm, session: Pick<LiveSession, 'id' | 'expiresAt' | 'lastUsedAt'>, until?: Date): Promise<void> {
  const now = ctx.clock.now();
  if (!isDueForTouch(session, now)) return;
  const sliding = new Date(now.getTime() + lifetimeMs(realm));
  const renewed = until && until < sliding ? until : sliding;
  // The object may be a cached credential's: it must see its own renewal, and parallel uses skip the write.
  session.lastUsedAt = now;
  if (renewed > session.expiresAt) session.expiresAt = renewed;
  await ctx.db.update(realmSessions)
    .set({ lastUsedAt: now, expiresAt: sql`greatest(${realmSessions.expiresAt}, ${renewed.toISOString()}::timestamptz)` })
    .where(and(
      eq(realmSessions.id, session.id), isNull(realmSessions.revokedAt),
      or(isNull(realmSessions.lastUsedAt), lte(realmSessions.lastUsedAt, new Date(now.getTime() - TOUCH_INTERVAL_MS))),
    ));
}

/**
 * Sign-out: the session and every access token tied to it stop working. With `userId`, only a live
 * session of that user ends (the profile's session list). Answers whether this call ended it: of
 * simultaneous calls, the one UPDATE that finds it not yet revoked.
 */
export async function endRealmSession(ctx: Context, sessionId: number, userId?: number): Promise<boolean> {
  const now = ctx.clock.now();
  const ended = await ctx.db.update(realmSessions).set({ revokedAt: now })
    .where(and(
      eq(realmSessions.id, sessionId), isNull(realmSessions.revokedAt),
      userId === undefined ? undefined : and(eq(realmSessions.userId, userId), gt(realmSessions.expiresAt, now)),
    )).returning({ id: realmSessions.id });
  if (!ended.length) return false;
  ctx.caches.changed('customers', `session:${sessionId}`);
  await forgetProviderTokens(ctx, [sessionId]);
  return true;
}

/** The identity provider's tokens kept for ended sessions are of no more use: none stays at rest. */
async function forgetProviderTokens(ctx: Context, sessionIds: number[]): Promise<void> {
  await ctx.db.delete(delegatedTokens).where(inArray(delegatedTokens.sessionId, sessionIds));
}

/**
 * Every live session of the user ends (admin revocation, a password reset), or every other one than
 * `keepSessionId` (a password changed from a session). One that expired has ended already: it is left as it is, so
 * that its applications are not told of its end again, years of them for a user who signs in every day.
 */
export async function revokeUserSessions(ctx: Context, userId: number, keepSessionId?: number): Promise<number> {
  const now = ctx.clock.now();
  const ended = await ctx.db.update(realmSessions).set({ revokedAt: now })
    .where(and(
      eq(realmSessions.userId, userId), isNull(realmSessions.revokedAt), gt(realmSessions.expiresAt, now),
      keepSessionId === undefined ? undefined : ne(realmSessions.id, keepSessionId),
    )).returning({ id: realmSessions.id });
  if (ended.length) {
    ctx.caches.changed('customers', `user:${userId}`);
    await forgetProviderTokens(ctx, ended.map((session) => session.id));
  }
  return ended.length;
}
