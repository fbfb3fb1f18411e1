import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Realm } from '../realms/realms.js';
import { fieldsOf } from '../realms/custom-fields.js';
import type { FieldValues } from '../realms/field-values.js';
import { oauthClients } from '../tables/oauth.js';
import { resolveRealmToken } from './credential.js';
import { InsufficientScope, InvalidToken } from './errors.js';
import { claimsOf } from './id-token.js';

/**
 * The userinfo endpoint (OpenID Connect Core 5.3): the claims the access token's scopes allow, for a token of the realm's
 * own; with the scope profile, the user's custom fields visible to users under the claim the token's client names.
 */
export async function userInfo(ctx: Context, realm: Realm, bearer: string | undefined): Promise<Record<string, unknown>> {
  const found = bearer ? await resolveRealmToken(ctx, realm.uid, bearer) : undefined;
  if (!found || typeof found.resolution !== 'object' || found.resolution === null) throw new InvalidToken('an access token of this realm, alive, is required');
  if (!found.scope.includes('openid')) throw new InsufficientScope('openid');
  const { user } = found.resolution;
  const claims = claimsOf(user, found.scope);
  if (!found.scope.includes('profile')) return claims;
  const [client] = found.clientId === null ? [] : await ctx.db.select({ claim: oauthClients.customFieldsClaim }).from(oauthClients).where(eq(oauthClients.id, found.clientId));
  if (!client?.claim) return claims;
  const values = user.customFields as FieldValues;
  const visible = (await fieldsOf(ctx, realm.id)).filter((field) => field.visible);
  return { ...claims, [client.claim]: Object.fromEntries(visible.map((field) => [field.key, values[field.key] ?? null])) };
}
