import type { Context } from '../context.js';
import { pkceMethods } from './pkce.js';
import type { Realm } from '../realms/realms.js';
import { OPENID_SCOPES, SCOPES } from './schema.js';
import { SIGNING_ALGS } from './signing-keys.js';

export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

export const issuerOf = (ctx: Context, realm: Pick<Realm, 'uid'>) => `${ctx.config.baseUrl}/realms/${encodeURIComponent(realm.uid)}`;

/** Where authorization happens: the realm's custom domain when it has one (spec 4.4), BASE_URL otherwise. */
export function authorizationEndpointOf(ctx: Context, realm: Pick<Realm, 'uid' | 'customDomain'>): string {
  if (realm.customDomain) return `${new URL(ctx.config.baseUrl).protocol}//${realm.customDomain}/realms/oauth/authorize`;
  return `${issuerOf(ctx, realm)}/oauth/authorize`;
}

/** RFC 8414 authorization server metadata of one realm. */
export function metadataOf(ctx: Context, realm: Realm) {
  const issuer = issuerOf(ctx, realm);
  return {
    issuer,
    authorization_endpoint: authorizationEndpointOf(ctx, realm),
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: realm.openidConnectEnabled ? ['authorization_code', 'refresh_token', 'client_credentials'] : ['authorization_code'],
    code_challenge_methods_supported: pkceMethods(realm.pkcePlainAllowed),
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    scopes_supported: realm.openidConnectEnabled ? [...SCOPES, ...OPENID_SCOPES] : [...SCOPES],
    authorization_response_iss_parameter_supported: true,
  };
}

/** OpenID Connect Discovery 1.0 section 3: the RFC 8414 metadata and what OpenID Connect adds, under the same issuer. */
export function openidConfigurationOf(ctx: Context, realm: Realm) {
  const metadata = metadataOf(ctx, realm);
  return {
    ...metadata,
    jwks_uri: `${metadata.issuer}/oauth/jwks`,
    userinfo_endpoint: `${metadata.issuer}/oauth/userinfo`,
    introspection_endpoint: `${metadata.issuer}/oauth/introspect`,
    end_session_endpoint: `${metadata.issuer}/oauth/logout`,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    claims_supported: [
      'sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'at_hash', 'sid', 'amr',
      'name', 'given_name', 'family_name', 'preferred_username', 'locale', 'updated_at', 'email', 'email_verified',
    ],
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    request_parameter_supported: false,
    claims_parameter_supported: false,
  };
}
