import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { admins } from '../tables/admin-auth.js';
import type { ActingContext } from '../admin-auth/principal.js';
import { recordEvent } from '../events/events.js';
import { cannotImpersonate } from '../errors/index.js';
import { findActiveRealm, type Realm } from '../realms/realms.js';
import { startRealmSession, type StartedSession } from '../realms/sessions.js';
import { realmUsers } from '../tables/realms.js';
import { findRealmUser } from '../realms/users.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { impersonationLinks } from '../tables/impersonation.js';

const LINK_LIFETIME_MS = 2 * 60_000;

export interface ImpersonationLink {
  url: string;
  expires_at: string;
}

/** The realm page a link opens; its token is masked in the request log (http/logging.ts). */
const accessPath = (realm: Realm, token: string) => `/realms/${encodeURIComponent(realm.uid)}/session/access/${token}`;

/**
 * A one-time sign-in link that opens a session as the user, flagged with the admin who made it. It
 * works once, within two minutes, and only while the realm and the user are active.
 */
export async function createImpersonationLink(ctx: ActingContext, realm: Realm, userId: number): Promise<ImpersonationLink> {
  const user = await findRealmUser(ctx.db, realm, userId);
  if (!realm.active) throw cannotImpersonate('The realm is inactive: its users cannot be impersonated');
  if (!user.active) throw cannotImpersonate('The user is inactive and cannot be impersonated');
  const token = randomSecret();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS);
  await ctx.db.insert(impersonationLinks).values({
    realmId: realm.id, userId: user.id, adminId: ctx.actor.adminId, tokenHash: hashSecret(token), expiresAt, createdAt: now,
  });
  return { url: `${ctx.config.baseUrl}${accessPath(realm, token)}`, expires_at: expiresAt.toISOString() };
}

export type OpenedLink =
  | { ok: true; realm: Realm; session: StartedSession }
  /** `unknown`: no such link in an active realm; `gone`: it was used, has expired, or its user is inactive. */
  | { ok: false; reason: 'unknown' | 'gone'; realm?: Realm };

/**
 * Opens the session a link promises. The link is claimed by one conditional UPDATE, so of any number of
 * simultaneous uses exactly one opens a session. `user_login_log` is recorded with the impersonator.
 */
export async function openImpersonationLink(ctx: Context, realmUid: string, token: string, userAgent?: string | string[]): Promise<OpenedLink> {
  const realm = await findActiveRealm(ctx, realmUid);
  if (!realm) return { ok: false, reason: 'unknown' };
  const hash = hashSecret(token);
  const now = ctx.clock.now();
  const [link] = await ctx.db.update(impersonationLinks).set({ usedAt: now }).where(and(
    eq(impersonationLinks.tokenHash, hash),
    eq(impersonationLinks.realmId, realm.id),
    isNull(impersonationLinks.usedAt),
    gt(impersonationLinks.expiresAt, now),
    sql`exists (select 1 from ${realmUsers} where ${realmUsers.id} = ${impersonationLinks.userId} and ${realmUsers.active})`,
  )).returning();
  if (!link) {
    const [known] = await ctx.db.select({ id: impersonationLinks.id }).from(impersonationLinks)
      .where(and(eq(impersonationLinks.tokenHash, hash), eq(impersonationLinks.realmId, realm.id)));
    return { ok: false, reason: known ? 'gone' : 'unknown', realm };
  }
  const session = await startRealmSession(ctx, realm, link.userId, { userAgent, impersonatorId: link.adminId });
  await recordEvent(ctx, { realmId: realm.id, userId: link.userId, type: 'user_login_log', impersonatorId: link.adminId });
  return { ok: true, realm, session };
}

/** The email of the admin impersonating in a session, for the banner the user's pages show. */
export async function impersonatorEmail(ctx: Context, impersonatorId: number | null): Promise<string | null> {
  if (impersonatorId === null) return null;
  const [admin] = await ctx.db.select({ email: admins.email }).from(admins).where(eq(admins.id, impersonatorId));
  return admin?.email ?? null;
}
