import { Type } from '@sinclair/typebox';
import { DateTime, Id, Int32, Nullable } from '../http/models.js';
import { PageQuery } from '../http/pagination.js';


export const AuditLogModel = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  at: DateTime,
  member_id: Nullable(Type.Integer(), 'The team member who acted; null for a failed sign-in with an email no member has'),
  member_email: Nullable(Type.String(), 'The member\'s email when it acted (the email tried, for a failed sign-in)'),
  credential: Nullable(Type.Union([Type.Literal('session'), Type.Literal('token')]),
    'How the member was signed in: the session cookie, or an access token of an API application; null for a sign-in attempt'),
  application_id: Nullable(Type.Integer(), 'The API access application of the token, when the credential was a token'),
  operation: Type.String({
    description: 'The route of an admin write, `METHOD /path/{param}` as in this reference; `sign_in`, `sign_in_failed`, '
      + '`locked_out` or `sign_out`; `identity_provider_issuer_changed` when a realm\'s identity provider issuer was set, changed or removed',
  }),
  resource_type: Nullable(Type.String(), 'The kind of resource written: the collection of the path (`realms`, `users`, `team_members`...)'),
  resource_id: Nullable(Type.String(), 'Its id, uid or uuid: from the path, or from the answer for a creation'),
  resource_label: Nullable(Type.String(), 'The resource\'s name when it was written (its name, full name, email or uid); for a '
    + 'deletion, the name recorded last for it; null when none is known, and for a realm user when the reader lacks '
    + '`realm.users.read` on its realm (personal data)'),
  realm: Nullable(Type.Object({
    uid: Type.String(),
    name: Nullable(Type.String(), 'The realm\'s name when the write was recorded; null when the write deleted it'),
  }), 'The realm the write was in (`/customers/{realm_uid}/...`, `/realms/{realm_uid}`); null outside a realm'),
  address: Nullable(Type.String(), 'The client address of the request'),
  changed: Type.Array(Type.String(), { description: 'The names of the attributes sent (top-level keys of the body), never their values' }),
  status_code: Nullable(Int32(), 'The answer\'s status code'),
}, { $id: 'AuditLogEntry', description: 'One admin write, sign-in, failed sign-in, lockout or sign-out' });

const dateTime = (description: string) => Type.Optional(Type.String({
  format: 'date-time', description: `${description}: an ISO 8601 date-time with an offset, e.g. 2025-01-31T09:00:00Z (422 otherwise)`,
}));

export const AuditLogQuery = Type.Object({
  ...PageQuery,
  member_id: Type.Optional(Id({ description: 'Only what this team member did' })),
  realm_uid: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only writes in this realm (see `realm`)' })),
  resource_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only writes of this kind of resource' })),
  resource_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only writes of the resource with this id, uid or uuid' })),
  from: dateTime('Only records at or after this moment'),
  to: dateTime('Only records before this moment'),
});
