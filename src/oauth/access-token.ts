import { randomUUID } from 'node:crypto';
import type { Context } from '../context.js';
import { randomSecret } from '../security/secrets.js';
import { sessionIdClaim } from './id-token.js';
import { issuerOf } from './metadata.js';
import { currentSigningKey } from './signing-keys.js';
import type { GrantFacts } from './grant-facts.js';

/**
 * A new access token: random and opaque (spec 5.2), or, for a client of an OpenID Connect realm that asks for them, an
 * RFC 9068 JWT signed with the realm's key, which a resource server verifies offline until its `exp`. Either is stored
 * by its hash and works in Atrium's own APIs as long as the session that authorized it, as spec 5.2 rule 9 says.
 */
export async function newAccessToken(ctx: Context, facts: GrantFacts, scope: string, now: Date): Promise<{ token: string; expiresIn?: number }> {
  const lifetime = facts.openidConnect ? facts.jwtAccessTokenSeconds : null;
  if (lifetime === null) return { token: randomSecret() };
  const key = await currentSigningKey(ctx, facts.realmId);
  const { SignJWT } = await import('jose');
  const iat = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({
    client_id: facts.clientUid, scope, sid: sessionIdClaim(facts.sessionHash), auth_time: Math.floor(facts.sessionCreatedAt.getTime() / 1000),
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
    // The audience is the resource such a token serves: the realm's customers API.
    .setIssuer(issuerOf(ctx, { uid: facts.realmUid })).setSubject(facts.user.uuid)
    .setAudience(`${ctx.config.baseUrl}/api/customers/realms/${encodeURIComponent(facts.realmUid)}`)
    .setIssuedAt(iat).setExpirationTime(iat + lifetime).setJti(randomUUID())
    .sign(key.privateKey);
  return { token, expiresIn: lifetime };
}
