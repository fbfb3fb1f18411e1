import { Type } from '@sinclair/typebox';
import { DateTime, ref } from '../http/models.js';

const Claim = Type.String({ maxLength: 100, description: 'The name of a claim of the ID token or userinfo answer' });

const claimMappingFields = {
  first_name: Type.Optional(Claim),
  last_name: Type.Optional(Claim),
  second_last_name: Type.Optional(Claim),
  username: Type.Optional(Claim),
  custom_fields: Type.Optional(Type.Record(Type.String({ maxLength: 50 }), Claim, {
    maxProperties: 20, description: 'Custom field key of the realm → claim name',
  })),
};

export const ClaimMappingModel = Type.Object(claimMappingFields, {
  $id: 'ClaimMapping', additionalProperties: false,
  description: 'Which claims fill a user created by a delegated sign-in (only then: later sign-ins change nothing). '
    + 'A claim the provider does not give, or whose value does not fit (an invalid username, a value of the wrong type), is left out.',
});

export const IdentityProviderInput = Type.Object({
  issuer: Type.Optional(Type.String({
    maxLength: 2048,
    description: 'The provider\'s issuer; checked by OpenID discovery (`{issuer}/.well-known/openid-configuration`). https, outside '
      + 'private, loopback and link-local ranges; http and such addresses only with OUTBOUND_ALLOW_PRIVATE=1 (development, private networks)',
  })),
  client_id: Type.Optional(Type.String({ maxLength: 255, description: 'The client id this realm has at the provider' })),
  client_secret: Type.Optional(Type.String({
    maxLength: 1024, writeOnly: true, description: 'Write only: stored encrypted, never answered. Left out once set, the stored one is kept',
  })),
  scopes: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), {
    maxItems: 20, description: 'Scopes asked of the provider; must include openid (default: openid, email, profile)',
  })),
  button_label: Type.Optional(Type.String({ maxLength: 60, description: 'The login page shows "Sign in with <button_label>"' })),
  show_delegation_information: Type.Optional(Type.Boolean({
    description: 'The realm\'s setting of the same name (one value, also changed by PUT /realms/{realm_uid}): GET /me shows the provider\'s token',
  })),
  claim_mapping: Type.Optional(Type.Object(claimMappingFields, {
    additionalProperties: false, description: 'Default: first_name ← given_name, last_name ← family_name',
  })),
}, { additionalProperties: false });

export const IdentityProviderModel = Type.Object({
  issuer: Type.String(),
  client_id: Type.String(),
  client_secret_set: Type.Literal(true, { description: 'A client secret is stored (it is never shown)' }),
  scopes: Type.Array(Type.String()),
  button_label: Type.String(),
  show_delegation_information: Type.Boolean(),
  claim_mapping: ref(ClaimMappingModel),
  redirect_uri: Type.String({
    description: 'The address to register as the client\'s redirect URI at the provider: {BASE_URL}/realms/{realm_uid}/delegated_login/callback '
      + '(and the same path on the realm\'s custom domain when its pages are served there)',
  }),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'IdentityProvider', description: 'A realm\'s OpenID Connect identity provider, without the client secret' });
