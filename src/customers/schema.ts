import { Type } from '@sinclair/typebox';
import { DateTime, Id, ref, Nullable } from '../http/models.js';
import { AvatarModel, CustomFieldValue } from '../realms/schema.js';

// Spec 7: the exact bodies of the customers API's credential failures.
export const UserSessionError = Type.Object({
  error: Type.Object({ user_session: Type.Literal('user not found') }),
}, { $id: 'UserSessionError', description: 'No usable credential, a token or session we never issued, a user of another realm, or an inactive user' });

export const GrantExpiredError = Type.Object({
  error: Type.Object({ grant_expired: Type.Literal('session expired') }),
}, { $id: 'GrantExpiredError', description: 'The credential was issued but its session has expired or was ended (sign-out, admin revocation, token revocation): authenticate again' });

export const RealmNotFound = Type.Object({}, { $id: 'RealmNotFound', additionalProperties: false, description: 'The realm_uid names no active realm' });

/** The documented credential failures of a customers API (or profile API) operation. */
export function credentialFailures(withRealm = true) {
  return {
    401: Type.Union([ref(UserSessionError), ref(GrantExpiredError)], { description: 'Told apart by the key inside `error`' }),
    ...(withRealm ? { 404: { ...ref(RealmNotFound), description: 'Unknown or inactive realm' } } : {}),
  };
}

export const DelegatedTokenModel = Type.Object({
  uuid: Type.String(),
  access_token: Type.String(),
  access_token_expires_in: Type.Integer(),
  access_token_expires_in_datetime: DateTime,
}, {
  $id: 'DelegatedToken',
  description: 'The access token the realm\'s identity provider gave at the delegated sign-in behind this session (refreshed with its '
    + 'refresh token when it is about to expire): `uuid` names the delegation, `access_token_expires_in` is in seconds',
});

export const MeModel = Type.Object({
  id: Id(),
  external_id: Nullable(Type.String()),
  name: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  second_last_name: Type.String(),
  email: Type.String({ format: 'email' }),
  username: Nullable(Type.String()),
  locale: Nullable(Type.String(), 'The language of the user\'s mails (en, es); null: the realm\'s default language'),
  avatar: Nullable(ref(AvatarModel)),
  custom_fields: Type.Array(CustomFieldValue, { description: 'The realm\'s custom fields visible to users, null where unset' }),
  delegated_token: Type.Union([ref(DelegatedTokenModel), Type.Null()], {
    description: 'Null unless the realm\'s show_delegation_information is on and the session (or the session behind the OAuth token) '
      + 'came from a sign-in with the realm\'s identity provider whose access token is still valid or could be refreshed',
  }),
}, { $id: 'Me', description: 'The signed-in realm user (spec 2.7)' });

const readOnly = { description: 'Read only: accepted so that a client may send back what it read, and ignored' };

export const MeInput = Type.Object({
  first_name: Type.Optional(Type.String()),
  last_name: Type.Optional(Type.String()),
  second_last_name: Type.Optional(Type.String()),
  username: Type.Optional(Nullable(Type.String(), 'Unique in the realm regardless of case')),
  locale: Type.Optional(Nullable(Type.String({ maxLength: 20 }), 'The language of the user\'s mails (en, es); null: the realm\'s default language')),
  email: Type.Optional(Type.String({ description: 'Unique in the realm regardless of case; a change is pending until the link mailed to the new address is used' })),
  custom_fields: Type.Optional(Type.Array(CustomFieldValue, {
    description: 'Values by key. Fields not both visible and editable by users, and unknown keys, are dropped silently and keep their value.',
  })),
  id: Type.Optional(Type.Unknown(readOnly)),
  name: Type.Optional(Type.Unknown(readOnly)),
  external_id: Type.Optional(Type.Unknown(readOnly)),
  avatar: Type.Optional(Type.Unknown(readOnly)),
  delegated_token: Type.Optional(Type.Unknown(readOnly)),
}, { additionalProperties: false });
