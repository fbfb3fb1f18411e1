import { and, eq, gt, isNull } from 'drizzle-orm';
import type { JWK } from 'jose';
import type { Context } from '../context.js';
import { recordEvent } from '../events/events.js';
import type { Realm } from '../realms/realms.js';
import { endRealmSession } from '../realms/sessions.js';
import { oauthClients } from '../tables/oauth.js';
import { realmSessions, realmUsers } from '../tables/realms.js';
import type { AuthorizeProblem } from './authorize.js';
import { sessionIdClaim } from './id-token.js';
import { issuerOf } from './metadata.js';
import { publishedKeys } from './signing-keys.js';

export type EndSessionOutcome = { kind: 'page'; problem: AuthorizeProblem } | { kind: 'redirect'; location: string };

const single = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The claims of an ID token this realm signed, expired or not (a hint may be old); null for anything else. */
async function hintClaims(ctx: Context, realm: Realm, token: string): Promise<{ aud: string; sub: string; sid: string } | null> {
  const { compactVerify, decodeProtectedHeader, importJWK } = await import('jose');
  try {
    const { kid } = decodeProtectedHeader(token);
    const jwk = (await publishedKeys(ctx, realm.id)).keys.find((key) => key.kid === kid);
    if (!jwk) return null;
    const { payload } = await compactVerify(token, await importJWK(jwk as JWK, jwk.alg));
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    if (claims.iss !== issuerOf(ctx, realm) || typeof claims.aud !== 'string' || typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return null;
    return { aud: claims.aud, sub: claims.sub, sid: claims.sid };
  } catch {
    return null;
  }
}

/**
 * OpenID Connect RP-Initiated Logout 1.0: the end-session endpoint. The `id_token_hint` (required here) names the
 * client and the session; that session ends (with the tokens tied to it, and the back-channel logouts it queues)
 * and the browser goes back to the client's registered `post_logout_redirect_uri` with its `state`, or to the realm's
 * sign-in page. No confirmation is asked: only the client holds the ID token that names the session.
 */
export async function endSession(ctx: Context, realm: Realm, query: Record<string, unknown>): Promise<EndSessionOutcome> {
  const hint = single(query.id_token_hint);
  const claims = hint ? await hintClaims(ctx, realm, hint) : null;
  if (!claims) return { kind: 'page', problem: 'logoutBadHint' };
  const clientId = single(query.client_id);
  if (clientId !== undefined && clientId !== claims.aud) return { kind: 'page', problem: 'logoutBadHint' };
  const [client] = await ctx.db.select({ postLogoutRedirectUris: oauthClients.postLogoutRedirectUris }).from(oauthClients)
    .where(and(eq(oauthClients.uid, claims.aud), eq(oauthClients.realmId, realm.id)));
  if (!client) return { kind: 'page', problem: 'logoutBadHint' };
  const back = single(query.post_logout_redirect_uri);
  if (back !== undefined && !client.postLogoutRedirectUris.includes(back)) return { kind: 'page', problem: 'logoutUnknownRedirect' };

  // The session the hint names: among the user's live ones (a few), the one whose sid it is.
  const now = ctx.clock.now();
  const sessions = await ctx.db.select({ id: realmSessions.id, hash: realmSessions.sessionHash, userId: realmSessions.userId, impersonatorId: realmSessions.impersonatorId })
    .from(realmSessions).innerJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
    .where(and(eq(realmUsers.uuid, claims.sub), eq(realmSessions.realmId, realm.id), isNull(realmSessions.revokedAt), gt(realmSessions.expiresAt, now)));
  const session = sessions.find((s) => sessionIdClaim(s.hash) === claims.sid);
  if (session && await endRealmSession(ctx, session.id)) {
    await recordEvent(ctx, { realmId: realm.id, userId: session.userId, type: 'user_logout_log', impersonatorId: session.impersonatorId });
  }
  if (back === undefined) return { kind: 'redirect', location: `/realms/${encodeURIComponent(realm.uid)}/login` };
  const location = new URL(back);
  const state = single(query.state);
  if (state !== undefined) location.searchParams.append('state', state);
  return { kind: 'redirect', location: location.toString() };
}
