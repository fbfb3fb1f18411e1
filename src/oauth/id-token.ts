import { createHash } from 'node:crypto';
import type { Context } from '../context.js';
import type { GrantFacts } from './grant-facts.js';
import { signJwt } from './jws.js';
import { issuerOf } from './metadata.js';
import { ID_TOKEN_LIFETIME_S, currentSigningKey, type SigningAlg } from './signing-keys.js';

/** What the claims of a user are read from: their row as the token exchange and userinfo read it. */
export interface ClaimedUser {
  uuid: string;
  email: string;
  emailVerifiedAt: Date | null;
  username: string | null;
  firstName: string;
  lastName: string;
  secondLastName: string;
  locale: string | null;
  updatedAt: Date;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

const base64urlHalfSha256 = (value: string) => {
  const digest = createHash('sha256').update(value).digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
};

/** `sid`: names the session without showing its database id, the same in every token of the session. */
export const sessionIdClaim = (sessionHash: string) => createHash('sha256').update(`sid:${sessionHash}`).digest('base64url').slice(0, 32);

/** The user's claims the granted scopes allow (OpenID Connect Core 5.4): `sub` always, `profile` and `email` by scope. */
export function claimsOf(user: ClaimedUser, scopes: readonly string[]): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: user.uuid };
  if (scopes.includes('profile')) {
    const family = [user.lastName, user.secondLastName].filter(Boolean).join(' ');
    const name = [user.firstName, family].filter(Boolean).join(' ');
    if (name) claims.name = name;
    if (user.firstName) claims.given_name = user.firstName;
    if (family) claims.family_name = family;
    if (user.username) claims.preferred_username = user.username;
    if (user.locale) claims.locale = user.locale;
    claims.updated_at = seconds(user.updatedAt);
  }
  if (scopes.includes('email')) {
    claims.email = user.email;
    claims.email_verified = user.emailVerifiedAt !== null;
  }
  return claims;
}

/** An ID token (OpenID Connect Core 2, 3.1.3.6), signed with the realm's key in use. */
export async function signIdToken(ctx: Context, facts: GrantFacts, token: { scopes: readonly string[]; accessToken: string; nonce: string | null; now: Date }): Promise<string> {
  const key = await currentSigningKey(ctx, facts.realmId, facts.idTokenAlg as SigningAlg);
  return signJwt(key, 'JWT', {
    iss: issuerOf(ctx, { uid: facts.realmUid }),
    aud: facts.clientUid,
    ...claimsOf(facts.user, token.scopes),
    auth_time: seconds(facts.sessionCreatedAt),
    ...(token.nonce !== null ? { nonce: token.nonce } : {}),
    at_hash: base64urlHalfSha256(token.accessToken),
    sid: sessionIdClaim(facts.sessionHash),
    ...(facts.authMethods.length ? { amr: facts.authMethods } : {}),
    ...(facts.upstreamIssuer ? { idp: facts.upstreamIssuer } : {}),
  }, { now: token.now, lifetime: ID_TOKEN_LIFETIME_S });
}
