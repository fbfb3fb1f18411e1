import { randomUUID } from 'node:crypto';
import type { Context } from '../context.js';
import { randomSecret } from '../security/secrets.js';
import { sessionIdClaim } from './id-token.js';
import { issuerOf } from './metadata.js';
import { currentSigningKey } from './signing-keys.js';

export interface AccessTokenFacts {
  /** The client's JWT lifetime (RFC 9068), or null for an opaque token. */
  jwtSeconds: number | null;
  realmId: number;
  realmUid: string;
  clientUid: string;
  userUuid: string;
  sessionHash: string;
  sessionCreatedAt: Date;
  scope: string;
  now: Date;
}

/**
 * A new access token: random and opaque (spec 5.2), or, for a client of an OpenID Connect realm that asks for them, an
 * RFC 9068 JWT signed with the realm's key, which a resource server verifies offline until its `exp`. Either is stored
 * by its hash and works in Atrium's own APIs as long as the session that authorized it, as spec 5.2 rule 9 says.
 */
export async function newAccessToken(ctx: Context, facts: AccessTokenFacts): Promise<{ token: string; expiresIn?: number }> {
  if (facts.jwtSeconds === null) return { token: randomSecret() };
  const key = await currentSigningKey(ctx, facts.realmId);
  const { SignJWT } = await import('jose');
  const iat = Math.floor(facts.now.getTime() / 1000);
  const token = await new SignJWT({
    client_id: facts.clientUid, scope: facts.scope, sid: sessionIdClaim(facts.sessionHash), auth_time: Math.floor(facts.sessionCreatedAt.getTime() / 1000),
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
    // The audience is the resource such a token serves: the realm's customers API.
    .setIssuer(issuerOf(ctx, { uid: facts.realmUid })).setSubject(facts.userUuid)
    .setAudience(`${ctx.config.baseUrl}/api/customers/realms/${encodeURIComponent(facts.realmUid)}`)
    .setIssuedAt(iat).setExpirationTime(iat + facts.jwtSeconds).setJti(randomUUID())
    .sign(key.privateKey);
  return { token, expiresIn: facts.jwtSeconds };
}
