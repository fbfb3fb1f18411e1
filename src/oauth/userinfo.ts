import type { Context } from '../context.js';
import type { Realm } from '../realms/realms.js';
import { resolveRealmToken } from './credential.js';
import { InsufficientScope, InvalidToken } from './errors.js';
import { claimsOf } from './id-token.js';

/** The userinfo endpoint (OpenID Connect Core 5.3): the claims the access token's scopes allow, for a token of the realm's own. */
export async function userInfo(ctx: Context, realm: Realm, bearer: string | undefined): Promise<Record<string, unknown>> {
  const found = bearer ? await resolveRealmToken(ctx, realm.uid, bearer) : undefined;
  if (!found || typeof found.resolution !== 'object' || found.resolution === null) throw new InvalidToken('an access token of this realm, alive, is required');
  if (!found.scope.includes('openid')) throw new InsufficientScope('openid');
  return claimsOf(found.resolution.user, found.scope);
}
