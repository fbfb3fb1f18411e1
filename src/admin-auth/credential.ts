import { sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import { hashSecret, safeEqual } from '../security/secrets.js';
import { AdminPrincipal, type Grant } from './principal.js';
import { cachedPrincipal, rememberPrincipal } from './credential-cache.js';

interface CredentialRow {
  admin_id: number;
  email: string;
  grants: Grant[] | string;
  session_id?: number;
  csrf_hash?: string;
}

// The grants of the member behind a credential, in the same round trip as the credential itself.
const GRANTS = sql`coalesce((
  select json_agg(json_build_object('key', r.key, 'context', r.context, 'target', ra.target, 'permissions', r.permissions))
  from role_assignments ra join roles r on r.id = ra.role_id
  where ra.admin_id = a.id), '[]'::json) as grants`;

function grantsOf(row: CredentialRow): Grant[] {
  return typeof row.grants === 'string' ? JSON.parse(row.grants) : row.grants;
}

/** A bearer access token: one indexed lookup by its hash. Tokens of inactive members do not resolve. */
export async function principalFromToken(ctx: Context, token: string): Promise<AdminPrincipal | null> {
  const tokenHash = hashSecret(token);
  const now = ctx.clock.now();
  const cached = cachedPrincipal(tokenHash, now);
  if (cached) return cached;
  const result = await ctx.db.execute(sql`
    select a.id as admin_id, a.email, ${GRANTS}
    from access_tokens t join admins a on a.id = t.admin_id
    where t.token_hash = ${tokenHash} and a.active`);
  const [row] = rowsOf<CredentialRow>(result);
  if (!row) return null;
  const principal = new AdminPrincipal(row.admin_id, row.email, grantsOf(row), 'token');
  rememberPrincipal(tokenHash, principal, now);
  return principal;
}

export interface SessionCheck {
  principal: AdminPrincipal;
  csrfMatches(token: string | undefined): boolean;
}

/** The admin session cookie: resolves while the session lasts and its member is active. */
export async function principalFromSession(ctx: Context, sessionId: string): Promise<SessionCheck | null> {
  const result = await ctx.db.execute(sql`
    select a.id as admin_id, a.email, s.id as session_id, s.csrf_hash, ${GRANTS}
    from admin_sessions s join admins a on a.id = s.admin_id
    where s.session_hash = ${hashSecret(sessionId)} and s.expires_at > ${ctx.clock.now().toISOString()} and a.active`);
  const [row] = rowsOf<CredentialRow>(result);
  if (!row) return null;
  return {
    principal: new AdminPrincipal(row.admin_id, row.email, grantsOf(row), 'session', row.session_id),
    csrfMatches: (token) => token !== undefined && safeEqual(hashSecret(token), row.csrf_hash!),
  };
}
