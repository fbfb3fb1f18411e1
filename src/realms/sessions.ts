import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Context } from '../context.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { realmSessions } from './tables.js';
import { delegatedTokens } from '../delegation/tables.js';

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

/** A new session's row (its secret only hashed) and the secret for the cookie. */
export function newSession(ctx: Context, realm: SessionRealm, userId: number, impersonatorId: number | null = null) {
  const secret = randomSecret();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + lifetimeMs(realm));
  return { secret, row: { realmId: realm.id, userId, sessionHash: hashSecret(secret), expiresAt, impersonatorId, createdAt: now } };
}

/** A fresh session with a fresh random id: never reuses one the browser brought (no fixation). */
export async function startRealmSession(ctx: Context, realm: SessionRealm, userId: number, impersonatorId: number | null = null): Promise<StartedSession> {
  const { secret, row: values } = newSession(ctx, realm, userId, impersonatorId);
  const [row] = await ctx.db.insert(realmSessions).values(values).returning({ id: realmSessions.id });
  return { id: row.id, secret, expiresAt: values.expiresAt };
}

export interface LiveSession {
  id: number;
  userId: number;
  expiresAt: Date;
  revokedAt: Date | null;
  impersonatorId: number | null;
}

export const isLive = (session: Pick<LiveSession, 'expiresAt' | 'revokedAt'>, now: Date) =>
  !session.revokedAt && session.expiresAt > now;

/**
 * Sliding expiry: each use renews the session for the realm's lifetime. To spare a write on every
 * request, the renewal is stored only once a minute has passed since the last one.
 */
export async function renewSession(ctx: Context, realm: SessionRealm, session: Pick<LiveSession, 'id' | 'expiresAt'>): Promise<void> {
  const renewed = ctx.clock.now().getTime() + lifetimeMs(realm);
  if (renewed - session.expiresAt.getTime() < 60_000) return;
  await ctx.db.update(realmSessions).set({ expiresAt: new Date(renewed) })
    .where(and(eq(realmSessions.id, session.id), isNull(realmSessions.revokedAt)));
  // The object may be a cached credential's: it must see its own renewal.
  session.expiresAt = new Date(renewed);
}

/** Sign-out: the session and every access token tied to it stop working. */
export async function endRealmSession(ctx: Context, sessionId: number): Promise<void> {
  const ended = await ctx.db.update(realmSessions).set({ revokedAt: ctx.clock.now() })
    .where(and(eq(realmSessions.id, sessionId), isNull(realmSessions.revokedAt))).returning({ id: realmSessions.id });
  if (!ended.length) return;
  ctx.caches.changed('customers', `session:${sessionId}`);
  await forgetProviderTokens(ctx, [sessionId]);
}

/** The identity provider's tokens kept for ended sessions are of no more use: none stays at rest. */
async function forgetProviderTokens(ctx: Context, sessionIds: number[]): Promise<void> {
  await ctx.db.delete(delegatedTokens).where(inArray(delegatedTokens.sessionId, sessionIds));
}

/**
 * Every session of the user ends (admin revocation, a password reset), or every other one than
 * `keepSessionId` (a password changed from a session).
 */
export async function revokeUserSessions(ctx: Context, userId: number, keepSessionId?: number): Promise<number> {
  const ended = await ctx.db.update(realmSessions).set({ revokedAt: ctx.clock.now() })
    .where(and(
      eq(realmSessions.userId, userId), isNull(realmSessions.revokedAt),
      keepSessionId === undefined ? undefined : ne(realmSessions.id, keepSessionId),
    )).returning({ id: realmSessions.id });
  if (ended.length) {
    ctx.caches.changed('customers', `user:${userId}`);
    await forgetProviderTokens(ctx, ended.map((session) => session.id));
  }
  return ended.length;
}
