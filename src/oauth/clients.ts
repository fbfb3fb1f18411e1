import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { FieldErrors, notFound } from '../errors/index.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import type { Realm } from '../realms/realms.js';
import { targetProblem } from '../net/outbound.js';
import { JWT_ACCESS_LIMITS, OPENID_SCOPES, REFRESH_LIFETIME_LIMITS, SCOPES, type OAuthClientInput as OAuthClientInputSchema, type OAuthClientModel } from './schema.js';
import { oauthClients, oauthClientTokens } from '../tables/oauth.js';
import { DEFAULT_SIGNING_ALG, SIGNING_ALGS } from './signing-keys.js';
import { textSearch } from '../db/like.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { orderOf, type ListParams } from '../db/sorting.js';

type ClientRow = typeof oauthClients.$inferSelect;

export type OAuthClientBody = Static<typeof OAuthClientModel>;
export type OAuthClientInput = Static<typeof OAuthClientInputSchema>;

function clientBody(row: ClientRow, secret?: string): OAuthClientBody {
  return {
    id: row.id,
    uid: row.uid,
    name: row.name,
    redirect_uris: row.redirectUris,
    scopes: row.scopes,
    confidential: row.confidential,
    refresh_token_lifetime_seconds: row.refreshAbsoluteSeconds,
    refresh_token_idle_seconds: row.refreshIdleSeconds,
    post_logout_redirect_uris: row.postLogoutRedirectUris,
    backchannel_logout_uri: row.backchannelLogoutUri,
    jwt_access_token_seconds: row.jwtAccessTokenSeconds,
    id_token_signed_response_alg: row.idTokenSignedResponseAlg,
    custom_fields_claim: row.customFieldsClaim,
    client_credentials_scopes: row.clientCredentialsScopes,
    ...(secret ? { secret } : {}),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const DEFAULT_REFRESH = { absolute: 30 * 86_400, idle: 14 * 86_400 };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The claims OpenID Connect Core (2, 5.1) and its extensions give a meaning: a client's custom-fields claim may not take one. */
const STANDARD_CLAIMS = new Set(['iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'jti', 'auth_time', 'nonce', 'acr', 'amr', 'azp', 'at_hash', 'c_hash', 'sid', 'idp',
  'name', 'given_name', 'family_name', 'middle_name', 'nickname', 'preferred_username', 'profile', 'picture', 'website', 'email', 'email_verified',
  'gender', 'birthdate', 'zoneinfo', 'locale', 'phone_number', 'phone_number_verified', 'address', 'updated_at', 'scope', 'client_id']);
const CLAIM_NAME = /^[A-Za-z0-9_:/.-]{1,100}$/;

/** Parameters the authorization response appends to the redirect URI; a registered one would be sent twice. */
const RESPONSE_PARAMS = ['code', 'state', 'iss'];

/**
 * Why a redirect URI is refused, or null. Absolute http(s) without fragment; plain http only for
 * localhost and loopback addresses (RFC 8252 7.3), since a code sent in clear text can be stolen.
 */
export function redirectUriProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `is not an absolute URL: ${raw}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must use https: ${raw}`;
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname) && !url.hostname.endsWith('.localhost')) {
    return `must use https (http is allowed for localhost and loopback addresses only): ${raw}`;
  }
  if (raw.includes('#')) return `must not contain a fragment: ${raw}`;
  if (url.username || url.password) return `must not contain credentials: ${raw}`;
  const reserved = RESPONSE_PARAMS.filter((name) => url.searchParams.has(name));
  if (reserved.length) return `must not carry ${reserved.join(', ')} in its query (the authorization response adds them): ${raw}`;
  return null;
}

/** A refresh token family's lifetimes: each within the limits, the idle one no longer than the whole. */
function checkLifetimes(absolute: number, idle: number, errors: FieldErrors): void {
  const { min, max } = REFRESH_LIFETIME_LIMITS;
  for (const [name, value] of [['refresh_token_lifetime_seconds', absolute], ['refresh_token_idle_seconds', idle]] as const) {
    if (value < min || value > max) errors.add(name, `must be between ${min} and ${max}`);
  }
  if (idle > absolute) errors.add('refresh_token_idle_seconds', 'must not be longer than refresh_token_lifetime_seconds');
}

function checkInput(input: OAuthClientInput, creating: boolean, errors: FieldErrors, allowPrivate: boolean) {
  const name = input.name?.trim();
  if ((creating || input.name !== undefined) && !name) errors.add('name', "can't be blank");
  if (input.redirect_uris !== undefined || creating) {
    const uris = input.redirect_uris ?? [];
    if (!uris.length) errors.add('redirect_uris', "can't be blank");
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) errors.add('redirect_uris', problem);
    }
  }
  for (const scope of input.scopes ?? []) {
    if (![...SCOPES, ...OPENID_SCOPES].includes(scope as never)) errors.add('scopes', `is not a known scope: ${scope} (${[...SCOPES, ...OPENID_SCOPES].join(', ')})`);
  }
  for (const uri of input.post_logout_redirect_uris ?? []) {
    const problem = redirectUriProblem(uri);
    if (problem) errors.add('post_logout_redirect_uris', problem);
  }
  const backchannel = input.backchannel_logout_uri ? targetProblem(input.backchannel_logout_uri, allowPrivate) : null;
  const jwt = input.jwt_access_token_seconds;
  if (jwt !== undefined && jwt !== null && (jwt < JWT_ACCESS_LIMITS.min || jwt > JWT_ACCESS_LIMITS.max)) {
    errors.add('jwt_access_token_seconds', `must be between ${JWT_ACCESS_LIMITS.min} and ${JWT_ACCESS_LIMITS.max}, or null`);
  }
  if (backchannel) errors.add('backchannel_logout_uri', backchannel);
  const alg = input.id_token_signed_response_alg;
  if (alg !== undefined && !SIGNING_ALGS.includes(alg as never)) errors.add('id_token_signed_response_alg', `must be one of ${SIGNING_ALGS.join(', ')}`);
  const claim = input.custom_fields_claim === undefined ? undefined : input.custom_fields_claim?.trim() || null;
  if (claim && (!CLAIM_NAME.test(claim) || STANDARD_CLAIMS.has(claim))) {
    errors.add('custom_fields_claim', 'must be letters, digits and _ : / . - (at most 100), and not a claim the standard defines');
  }
  for (const scope of input.client_credentials_scopes ?? []) {
    if (!SCOPES.includes(scope as never)) errors.add('client_credentials_scopes', `is not a scope a client may hold as itself: ${scope} (${SCOPES.join(', ')})`);
  }
  return {
    customFieldsClaim: claim,
    clientCredentialsScopes: input.client_credentials_scopes ? [...new Set(input.client_credentials_scopes)] : undefined,
    name,
    redirectUris: input.redirect_uris ? [...new Set(input.redirect_uris)] : undefined,
    postLogoutRedirectUris: input.post_logout_redirect_uris ? [...new Set(input.post_logout_redirect_uris)] : undefined,
    backchannelLogoutUri: input.backchannel_logout_uri === undefined ? undefined : input.backchannel_logout_uri || null,
    scopes: input.scopes ? [...new Set(input.scopes)] : undefined,
  };
}

async function findClient(ctx: Context, realm: Realm, id: number): Promise<ClientRow> {
  const realmId = realm.id;
  const [row] = await ctx.db.select().from(oauthClients).where(and(eq(oauthClients.id, id), eq(oauthClients.realmId, realmId)));
  if (!row) throw notFound('OAuth client');
  return row;
}

export const CLIENT_SORTABLE = {
  id: oauthClients.id, uid: oauthClients.uid, name: oauthClients.name, created_at: oauthClients.createdAt, updated_at: oauthClients.updatedAt,
};

export async function listClients(ctx: ActingContext, realm: Realm, page: Page, query: ListParams) {
  ctx.actor.assertHolds('realms.read', realm.uid);
  const realmId = realm.id;
  const where = and(eq(oauthClients.realmId, realmId), textSearch(query.query, [oauthClients.name, oauthClients.uid]));
  const rows = await ctx.db.select({ client: oauthClients, total: totalCount }).from(oauthClients).where(where)
    .orderBy(orderOf(CLIENT_SORTABLE, query, oauthClients.id, 'asc'), asc(oauthClients.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, oauthClients, where);
  return { items: rows.map((row) => clientBody(row.client)), total };
}

export async function getClient(ctx: ActingContext, realm: Realm, id: number): Promise<OAuthClientBody> {
  ctx.actor.assertHolds('realms.read', realm.uid);
  return clientBody(await findClient(ctx, realm, id));
}

/** The secret is shown in this answer only; the database keeps its SHA-256 hash. */
export async function createClient(ctx: ActingContext, realm: Realm, input: OAuthClientInput): Promise<OAuthClientBody> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  const realmId = realm.id;
  const errors = new FieldErrors();
  const checked = checkInput(input, true, errors, ctx.config.outboundAllowPrivate);
  if (checked.clientCredentialsScopes?.length && input.confidential === false) errors.add('client_credentials_scopes', 'needs a confidential client');
  const absolute = input.refresh_token_lifetime_seconds ?? DEFAULT_REFRESH.absolute;
  const idle = input.refresh_token_idle_seconds ?? Math.min(DEFAULT_REFRESH.idle, absolute);
  checkLifetimes(absolute, idle, errors);
  errors.throwIfAny();
  const secret = randomSecret();
  const now = ctx.clock.now();
  const [row] = await ctx.db.insert(oauthClients).values({
    uid: randomSecret(24),
    realmId,
    name: checked.name!,
    secretHash: hashSecret(secret),
    redirectUris: checked.redirectUris!,
    scopes: checked.scopes ?? [],
    confidential: input.confidential ?? true,
    refreshAbsoluteSeconds: absolute,
    refreshIdleSeconds: idle,
    postLogoutRedirectUris: checked.postLogoutRedirectUris ?? [],
    backchannelLogoutUri: checked.backchannelLogoutUri ?? null,
    jwtAccessTokenSeconds: input.jwt_access_token_seconds ?? null,
    idTokenSignedResponseAlg: input.id_token_signed_response_alg ?? DEFAULT_SIGNING_ALG,
    customFieldsClaim: checked.customFieldsClaim ?? null,
    clientCredentialsScopes: checked.clientCredentialsScopes ?? [],
    createdAt: now,
    updatedAt: now,
  }).returning();
  return clientBody(row, secret);
}

/** Partial: attributes left out keep their value (only those sent are written). The secret never changes here. */
export async function updateClient(ctx: ActingContext, realm: Realm, id: number, input: OAuthClientInput): Promise<OAuthClientBody> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  const row = await findClient(ctx, realm, id);
  const errors = new FieldErrors();
  const checked = checkInput(input, false, errors, ctx.config.outboundAllowPrivate);
  if ((checked.clientCredentialsScopes ?? row.clientCredentialsScopes).length && !(input.confidential ?? row.confidential)) {
    errors.add('client_credentials_scopes', 'needs a confidential client');
  }
  const absolute = input.refresh_token_lifetime_seconds ?? row.refreshAbsoluteSeconds;
  const idle = input.refresh_token_idle_seconds ?? row.refreshIdleSeconds;
  if (input.refresh_token_lifetime_seconds !== undefined || input.refresh_token_idle_seconds !== undefined) checkLifetimes(absolute, idle, errors);
  errors.throwIfAny();
  const [updated] = await ctx.db.update(oauthClients).set({
    name: checked.name,
    redirectUris: checked.redirectUris,
    scopes: checked.scopes,
    confidential: input.confidential,
    refreshAbsoluteSeconds: input.refresh_token_lifetime_seconds,
    refreshIdleSeconds: input.refresh_token_idle_seconds,
    postLogoutRedirectUris: checked.postLogoutRedirectUris,
    backchannelLogoutUri: checked.backchannelLogoutUri,
    jwtAccessTokenSeconds: input.jwt_access_token_seconds,
    idTokenSignedResponseAlg: input.id_token_signed_response_alg,
    customFieldsClaim: checked.customFieldsClaim,
    clientCredentialsScopes: checked.clientCredentialsScopes,
    updatedAt: ctx.clock.now(),
  }).where(and(eq(oauthClients.id, id), eq(oauthClients.realmId, row.realmId))).returning();
  if (!updated) throw notFound('OAuth client');
  ctx.caches.changed('customers', `client:${id}`);
  return clientBody(updated);
}

/**
 * A new secret, shown in this answer only; the previous one stops working at once (a leaked secret is
 * the reason to regenerate). Tokens issued for users keep working: they belong to users' sessions. The client's own
 * (client_credentials) tokens stop working: whoever held the leaked secret could have got them.
 */
export async function regenerateSecret(ctx: ActingContext, realm: Realm, id: number): Promise<OAuthClientBody> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  const row = await findClient(ctx, realm, id);
  const secret = randomSecret();
  const [updated] = await ctx.db.update(oauthClients).set({ secretHash: hashSecret(secret), updatedAt: ctx.clock.now() })
    .where(eq(oauthClients.id, row.id)).returning();
  if (!updated) throw notFound('OAuth client');
  await ctx.db.update(oauthClientTokens).set({ revokedAt: ctx.clock.now() }).where(and(eq(oauthClientTokens.clientId, row.id), isNull(oauthClientTokens.revokedAt)));
  ctx.caches.changed('customers', `client:${id}`);
  return clientBody(updated, secret);
}

/** Its codes and tokens go with it (cascade): a removed client's tokens stop working. */
export async function deleteClient(ctx: ActingContext, realm: Realm, id: number): Promise<void> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  const row = await findClient(ctx, realm, id);
  await ctx.db.delete(oauthClients).where(eq(oauthClients.id, row.id));
  // Its tokens went with it.
  ctx.caches.changed('customers', `realm:${row.realmId}`);
}
