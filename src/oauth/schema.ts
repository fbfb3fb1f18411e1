import { Type } from '@sinclair/typebox';
import { DateTime, Id, Int32, Nullable } from '../http/models.js';

export const SCOPES = ['public', 'admin'] as const;
export const DEFAULT_SCOPE = 'public';
/** The scopes a realm with OpenID Connect enabled knows besides SCOPES. */
export const OPENID_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;
/** Granted only to a client that lists it: an admin listing it is the consent (there is no consent screen). */
export const OFFLINE_ACCESS = 'offline_access';
export const REFRESH_LIFETIME_LIMITS = { min: 60, max: 366 * 86_400 };
export const JWT_ACCESS_LIMITS = { min: 60, max: 3600 };

export const OAuthClientModel = Type.Object({
  id: Id(),
  uid: Type.String({ description: 'The client_id' }),
  name: Type.String(),
  redirect_uris: Type.Array(Type.String(), { description: 'Exact redirect URIs; compared as strings' }),
  scopes: Type.Array(Type.String(), { description: 'Scopes the client may ask for (public, admin, and openid, profile, email where the realm has OpenID Connect enabled); empty: any' }),
  confidential: Type.Boolean({ description: 'A confidential client authenticates with its secret at the token endpoint' }),
  refresh_token_lifetime_seconds: Int32({ description: 'OpenID Connect: how long a refresh token family lives at most from the sign-in (default 30 days)' }),
  refresh_token_idle_seconds: Int32({ description: 'OpenID Connect: how long a refresh token works unused (default 14 days)' }),
  post_logout_redirect_uris: Type.Array(Type.String(), { description: 'OpenID Connect: where the end-session endpoint may send the browser after a sign-out' }),
  backchannel_logout_uri: Nullable(Type.String(), 'OpenID Connect: where a signed logout token is POSTed when a session the client holds a token of ends; null for none'),
  jwt_access_token_seconds: Nullable(Int32(), 'OpenID Connect: the client\'s access tokens are RFC 9068 JWTs living this many seconds; null for opaque tokens'),
  id_token_signed_response_alg: Type.String({ description: 'OpenID Connect: the algorithm of the client\'s ID tokens, RS256 or ES256' }),
  custom_fields_claim: Nullable(Type.String(), 'OpenID Connect: the userinfo claim carrying the user\'s visible custom fields (scope profile); null for none'),
  client_credentials_scopes: Type.Array(Type.String(), { description: 'OpenID Connect: the scopes the client may get a token for as itself (grant client_credentials); empty: the grant is refused' }),
  secret: Type.Optional(Type.String({ description: 'The client_secret: only in the answer that creates the client' })),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'OAuthClient', description: 'An OAuth 2.0 client of a realm (spec 2.13)' });

const clientFields = {
  name: Type.String({ description: 'Required at creation' }),
  redirect_uris: Type.Array(Type.String(), {
    description: 'At least one; absolute https URLs without fragment (http only for localhost and loopback addresses)',
  }),
  scopes: Type.Array(Type.String(), { description: 'Subset of public, admin, openid, profile and email (the last three are asked for only where the realm has OpenID Connect enabled); empty allows all' }),
  confidential: Type.Boolean({ description: 'Default true' }),
  refresh_token_lifetime_seconds: Int32({
    description: 'OpenID Connect refresh tokens (scope offline_access, granted only to a client that lists it): the family\'s absolute '
      + `lifetime, ${REFRESH_LIFETIME_LIMITS.min} to ${REFRESH_LIFETIME_LIMITS.max} seconds (default 2592000, 30 days)`,
  }),
  refresh_token_idle_seconds: Int32({ description: 'How long a refresh token works unused, no longer than the lifetime (default 1209600, 14 days, or the lifetime if shorter)' }),
  post_logout_redirect_uris: Type.Array(Type.String(), {
    description: 'OpenID Connect RP-initiated logout: exact addresses the end-session endpoint may redirect to (the rules of redirect_uris); default none',
  }),
  backchannel_logout_uri: Nullable(Type.String(),
    'OpenID Connect back-channel logout: an http(s) address, not in a private range unless OUTBOUND_ALLOW_PRIVATE=1, where a signed '
      + 'logout token is POSTed (in the background, retried) when a session ends for any reason; null (default) for none'),
  jwt_access_token_seconds: Nullable(Int32(),
    `OpenID Connect: issue RFC 9068 JWT access tokens living this many seconds (${JWT_ACCESS_LIMITS.min} to ${JWT_ACCESS_LIMITS.max}), `
      + 'which a resource server verifies offline against the realm\'s JWKS. Such a token outlives a revoked session in those servers until '
      + 'it expires: keep it short. Atrium\'s own APIs still refuse it once its session ends. null (default): opaque tokens'),
  id_token_signed_response_alg: Type.String({
    maxLength: 10, description: 'OpenID Connect: the algorithm of the client\'s ID tokens, RS256 (default) or ES256; the realm keeps a key of each in use, both in its JWKS',
  }),
  client_credentials_scopes: Type.Array(Type.String({ maxLength: 100 }), {
    maxItems: 10,
    description: 'OpenID Connect, confidential clients only: the scopes (public, admin) the client may get an access token for as itself, with '
      + 'grant_type=client_credentials and its secret. Such a token has no user: Atrium\'s own APIs refuse it; resource servers introspect it '
      + `or, with jwt_access_token_seconds, verify it offline (sub is the client). It lives jwt_access_token_seconds, else 3600 s. Default empty: the grant is refused`,
  }),
  custom_fields_claim: Nullable(Type.String({ maxLength: 1000 }),
    'OpenID Connect: with the scope profile, userinfo adds the user\'s custom fields visible to users, as an object key → value, under this claim '
      + '(letters, digits and _ : / . -, at most 100, not a claim of the standard such as name or email; a URL makes it collision-resistant); null (default) for none'),
};

export const OAuthClientInput = Type.Partial(Type.Object(clientFields), { additionalProperties: false });

export const RealmParam = Type.Object({ realm_uid: Type.String() });

export const SigningKeyModel = Type.Object({
  kid: Type.String({ description: 'The key id (`kid`) the realm\'s ID tokens are now signed with' }),
}, { $id: 'SigningKey', description: 'The realm\'s signing key in use (OpenID Connect)' });
export const ClientParams = Type.Object({ realm_uid: Type.String(), id: Id() });

const Address = (description: string) => Type.String({ format: 'uri', description });

export const RealmAddressesModel = Type.Object({
  pages: Type.Object({
    sign_in: Address('The sign-in page (`redirect_uri` query: where to go once signed in)'),
    sign_up: Address('The sign-up page'),
    one_time_code: Address('Sign-in with a one-time code sent by email'),
    password_reset: Address('Where a user asks for a password reset link'),
  }, { description: 'The realm\'s pages, on its custom domain when it has one' }),
  oauth: Type.Object({
    issuer: Address('The issuer (`iss`)'),
    metadata: Address('RFC 8414 authorization server metadata: an OAuth library configured with it finds the rest'),
    authorization_endpoint: Address('Where an app sends the user to sign in'),
    token_endpoint: Address('Where an app exchanges a code for a token'),
    revocation_endpoint: Address('RFC 7009 token revocation'),
  }),
  openid_connect: Type.Union([Type.Object({
    discovery: Address('OpenID Connect Discovery: an OpenID Connect library configured with it finds the rest'),
    jwks_uri: Address('The realm\'s public signing keys'),
    userinfo_endpoint: Address('The signed-in user\'s claims, for an access token with the scope openid'),
    introspection_endpoint: Address('RFC 7662 token introspection, for confidential clients'),
    end_session_endpoint: Address('RP-initiated logout'),
  }), Type.Null()], { description: 'The OpenID Connect addresses where the realm enables it (settings.openid_connect_enabled); null otherwise' }),
  identity_provider_callbacks: Type.Array(Address('A redirect URI'), {
    description: 'The redirect URIs to register at the upstream identity provider for delegated sign-in: on the base address, and on the custom domain when there is one',
  }),
}, { $id: 'RealmAddresses', description: 'The addresses of a realm that apps and identity providers are configured with' });
