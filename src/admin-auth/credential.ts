import { and, eq, gt, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { hashSecret, safeEqual } from '../security/secrets.js';
import { AdminPrincipal, type Grant } from './principal.js';
import { accessTokens, adminSessions, admins } from '../tables/admin-auth.js';

// The grants of the member behind a credential, in the same round trip as the credential itself.
// Spelled out: inside select fields Drizzle renders columns unqualified, which the subquery would misread.
// A site role also reaches the content spaces its site reads, as a space role with the same permissions
// (the principal keeps only those a space role may carry: content.*).
const grants = sql<Grant[] | string>`coalesce((select json_agg(g) from (
  select json_build_object('key', r.key, 'context', r.context, 'target', ra.target, 'permissions', r.permissions) as g
  from role_assignments ra join roles r on r.id = ra.role_id
  where ra.admin_id = "admins"."id"
  union all
  select json_build_object('key', r.key, 'context', 'space', 'target', s.space_uid, 'permissions', r.permissions)
  from role_assignments ra join roles r on r.id = ra.role_id and r.context = 'site'
  join sites st on st.uid = ra.target cross join unnest(st.space_uids) as s(space_uid)
  where ra.admin_id = "admins"."id") as granted), '[]'::json)`;

const grantsOf = (value: Grant[] | string): Grant[] => (typeof value === 'string' ? JSON.parse(value) : value);

const byToken = (db: Db) => prepared(db, 'admin_by_token', (d, name) => d
  .select({ adminId: admins.id, applicationId: accessTokens.applicationId, grants })
  .from(accessTokens).innerJoin(admins, eq(admins.id, accessTokens.adminId))
  .where(and(eq(accessTokens.tokenHash, sql.placeholder('hash')), eq(admins.active, true)))
  .prepare(name));

const bySession = (db: Db) => prepared(db, 'admin_by_session', (d, name) => d
  .select({ adminId: admins.id, grants, sessionId: adminSessions.id, csrfHash: adminSessions.csrfHash, enrolmentOnly: adminSessions.enrolmentOnly })
  .from(adminSessions).innerJoin(admins, eq(admins.id, adminSessions.adminId))
  .where(and(eq(adminSessions.sessionHash, sql.placeholder('hash')), gt(adminSessions.expiresAt, sql.placeholder('now')), eq(admins.active, true)))
  .prepare(name));

const principals = (ctx: Context) => ctx.caches.of<AdminPrincipal>('access');
/** Where a token's member is kept: read by both the lookup and the guard's cache-only path. */
const tokenKey = (tokenHash: string) => `token:${tokenHash}`;

/** A bearer access token: one indexed lookup by its hash, kept until a write to its member drops it. Tokens of inactive members do not resolve. */
export async function principalFromToken(ctx: Context, token: string): Promise<AdminPrincipal | null> {
  const tokenHash = hashSecret(token);
  const principal = await principals(ctx).getOrLoad(tokenKey(tokenHash), ctx.clock.now(), async () => {
    const [row] = await byToken(ctx.db).execute({ hash: tokenHash });
    return row ? new AdminPrincipal(row.adminId, grantsOf(row.grants), null, row.applicationId) : undefined;
  }, (found) => [`admin:${found.adminId}`]);
  return principal ?? null;
}

/** `principalFromToken`'s answer when the cache alone holds it. */
export function rememberedTokenPrincipal(ctx: Context, token: string): AdminPrincipal | undefined {
  return principals(ctx).get(tokenKey(hashSecret(token)), ctx.clock.now());
}

export interface SessionCheck {
  principal: AdminPrincipal;
  csrfMatches(token: string | undefined): boolean;
  /** The session may only set up a second factor (the account requires one). */
  enrolmentOnly: boolean;
}

/** The admin session cookie: resolves while the session lasts and its member is active. */
export async function principalFromSession(ctx: Context, sessionId: string): Promise<SessionCheck | null> {
  const [row] = await bySession(ctx.db).execute({ hash: hashSecret(sessionId), now: ctx.clock.now().toISOString() });
  if (!row) return null;
  return {
    principal: new AdminPrincipal(row.adminId, grantsOf(row.grants), row.sessionId),
    csrfMatches: (token) => token !== undefined && safeEqual(hashSecret(token), row.csrfHash),
    enrolmentOnly: row.enrolmentOnly,
  };
}
