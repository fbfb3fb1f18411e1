import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { notFound } from '../errors/index.js';
import { INT32_MAX } from '../http/models.js';
import type { Realm } from './realms.js';
import { endRealmSession } from './sessions.js';
import { realmSessions } from '../tables/realms.js';
import type { SessionModel } from './schema.js';
import { findRealmUser } from './users.js';

export type SessionBody = Static<typeof SessionModel>;

/** Sessions created before last use was recorded count their creation as their last use. */
const lastUse = sql<Date>`coalesce(${realmSessions.lastUsedAt}, ${realmSessions.createdAt})`;

/**
 * A page of a realm user's active sessions (neither revoked nor expired), most recently used first;
 * `currentId` is the session making the request, when its cookie is the credential.
 */
export async function listUserSessions(ctx: Context, userId: number, page: Page, currentId: number | null): Promise<{ items: SessionBody[]; total: number }> {
  const live = and(eq(realmSessions.userId, userId), isNull(realmSessions.revokedAt), gt(realmSessions.expiresAt, ctx.clock.now()));
  const rows = await ctx.db.select({
    id: realmSessions.id, createdAt: realmSessions.createdAt, lastUsedAt: realmSessions.lastUsedAt, userAgent: realmSessions.userAgent, total: totalCount,
  }).from(realmSessions).where(live).orderBy(desc(lastUse), desc(realmSessions.id)).limit(page.perPage).offset(page.offset);
  return {
    items: rows.map((row) => ({
      id: row.id,
      created_at: row.createdAt.toISOString(),
      last_used_at: (row.lastUsedAt ?? row.createdAt).toISOString(),
      user_agent: row.userAgent,
      current: row.id === currentId,
    })),
    total: await totalOf(rows, page, ctx.db, realmSessions, live),
  };
}

/**
 * Ends one of a realm user's active sessions (with the access tokens tied to it). Another user's
 * session, an unknown id, or one already ended or expired answers 404: of simultaneous calls for the
 * same session, one ends it and the others find it gone.
 */
export async function endUserSession(ctx: Context, userId: number, id: number): Promise<void> {
  // The id column is 32-bit: past that no session has the id, and the database would refuse the comparison.
  if (id > INT32_MAX || !await endRealmSession(ctx, id, userId)) throw notFound('Session');
}

/** GET .../users/{id}/sessions: the user's active sessions, as the user sees them in the profile API (none `current`). */
export async function listRealmUserSessions(ctx: ActingContext, realm: Realm, id: number, page: Page): Promise<{ items: SessionBody[]; total: number }> {
  ctx.actor.assertHolds('realm.users.read', realm.uid);
  const user = await findRealmUser(ctx.db, realm, id);
  return listUserSessions(ctx, user.id, page, null);
}

/** DELETE .../users/{id}/sessions/{session_id}: ends one session of the realm's user. */
export async function endRealmUserSession(ctx: ActingContext, realm: Realm, id: number, sessionId: number): Promise<void> {
  ctx.actor.assertHolds('realm.users.write', realm.uid);
  const user = await findRealmUser(ctx.db, realm, id);
  await endUserSession(ctx, user.id, sessionId);
}
