import { Type } from '@sinclair/typebox';
import { DateTime, Id } from '../http/models.js';

export const SCOPES = ['public', 'admin'] as const;
export const DEFAULT_SCOPE = 'public';
/** The scopes a realm with OpenID Connect enabled knows besides SCOPES. */
export const OPENID_SCOPES = ['openid', 'profile', 'email'] as const;

export const OAuthClientModel = Type.Object({
  id: Id(),
  uid: Type.String({ description: 'The client_id' }),
  name: Type.String(),
  redirect_uris: Type.Array(Type.String(), { description: 'Exact redirect URIs; compared as strings' }),
  scopes: Type.Array(Type.String(), { description: 'Scopes the client may ask for (public, admin, and openid, profile, email where the realm has OpenID Connect enabled); empty: any' }),
  confidential: Type.Boolean({ description: 'A confidential client authenticates with its secret at the token endpoint' }),
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
  identity_provider_callbacks: Type.Array(Address('A redirect URI'), {
    description: 'The redirect URIs to register at the upstream identity provider for delegated sign-in: on the base address, and on the custom domain when there is one',
  }),
}, { $id: 'RealmAddresses', description: 'The addresses of a realm that apps and identity providers are configured with' });
