import { Type } from '@sinclair/typebox';
import { DateTime, Id } from '../http/models.js';

export const SCOPES = ['public', 'admin'] as const;
export const DEFAULT_SCOPE = 'public';

export const OAuthClientModel = Type.Object({
  id: Id(),
  uid: Type.String({ description: 'The client_id' }),
  name: Type.String(),
  redirect_uris: Type.Array(Type.String(), { description: 'Exact redirect URIs; compared as strings' }),
  scopes: Type.Array(Type.String(), { description: 'Scopes the client may ask for (public, admin); empty: any' }),
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
  scopes: Type.Array(Type.String(), { description: 'Subset of public and admin; empty allows both' }),
  confidential: Type.Boolean({ description: 'Default true' }),
};

export const OAuthClientInput = Type.Partial(Type.Object(clientFields), { additionalProperties: false });

export const RealmParam = Type.Object({ realm_uid: Type.String() });
export const ClientParams = Type.Object({ realm_uid: Type.String(), id: Id() });
