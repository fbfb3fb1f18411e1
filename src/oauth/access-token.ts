import { randomUUID } from 'node:crypto';
import type { Context } from '../context.js';
import { randomSecret } from '../security/secrets.js';
import { sessionIdClaim } from './id-token.js';
import { signJwt } from './jws.js';
import { issuerOf } from './metadata.js';
import { currentSigningKey } from './signing-keys.js';
import type { GrantFacts } from './grant-facts.js';

/** The lifetime of the grant's access tokens where they are JWTs (a client of an OpenID Connect realm that asks for them); null: random. */
export const jwtLifetime = (facts: Pick<GrantFacts, 'openidConnect' | 'jwtAccessTokenSeconds'>) => facts.openidConnect ? facts.jwtAccessTokenSeconds : null;

/**
 * A new access token: random and opaque (spec 5.2), or, for a client of an OpenID Connect realm that asks for them, an
 * RFC 9068 JWT signed with the realm's key, which a resource server verifies offline until its `exp`. Either is stored
 * by its hash and works in Atrium's own APIs as long as the session that authorized it, as spec 5.2 rule 9 says.
 */
export async function newAccessToken(ctx: Context, facts: GrantFacts, scope: string, now: Date): Promise<{ token: string; expiresIn?: number }> {
  const lifetime = jwtLifetime(facts);
  if (lifetime === null) return { token: randomSecret() };
  const token = await signAccessJwt(ctx, {
    realmId: facts.realmId, realmUid: facts.realmUid, clientUid: facts.clientUid, subject: facts.user.uuid, scope, lifetime, now,
    claims: { sid: sessionIdClaim(facts.sessionHash), auth_time: Math.floor(facts.sessionCreatedAt.getTime() / 1000) },
  });
  return { token, expiresIn: lifetime };
}

/**
 * An RFC 9068 access token signed with the realm's RS256 key: `sub` is the user, or the client itself for the
 * client_credentials grant (RFC 9068 2.2); `aud` the resource such a token serves, the realm's customers API.
 */
export async function signAccessJwt(ctx: Context, token: {
  realmId: number; realmUid: string; clientUid: string; subject: string; scope: string; lifetime: number; now: Date; claims?: Record<string, unknown>;
}): Promise<string> {
  const key = await currentSigningKey(ctx, token.realmId);
  return signJwt(key, 'at+jwt', {
    iss: issuerOf(ctx, { uid: token.realmUid }), sub: token.subject,
    aud: `${ctx.config.baseUrl}/api/customers/realms/${encodeURIComponent(token.realmUid)}`,
    client_id: token.clientUid, scope: token.scope, ...token.claims, jti: randomUUID(),
  }, { now: token.now, lifetime: token.lifetime });
}
