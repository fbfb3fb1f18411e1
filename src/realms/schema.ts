import { Type } from '@sinclair/typebox';
import { DateTime, Id, Int32, ref, Nullable } from '../http/models.js';
import { Meta } from '../http/pagination.js';
import { LOCALES } from '../i18n/locale.js';

export const BRANDING_LIMITS = { logo_url: 2048, page_title: 120 } as const;

export const RealmUidParam = Type.Object({ realm_uid: Type.String({ description: 'The realm\'s uid' }) });

const settingsFields = {
  session_lifetime_minutes: Int32({ description: 'Sliding: each use of a session renews it for this long (1 to 525600; default 120)' }),
  otp_code_validity_minutes: Int32({ description: 'How long a one-time code works, 1 to 30 (default 5)' }),
  otp_resend_wait_seconds: Int32({ description: 'Wait before another code may be sent, 0 to 3600 (default 30; 0 allows at once)' }),
  pkce_plain_allowed: Type.Boolean({ description: 'Accept the PKCE method `plain` besides S256 (default false)' }),
  openid_connect_enabled: Type.Boolean({
    description: 'OpenID Connect on the realm\'s OAuth server (default false): discovery, signing keys, ID tokens for the scope '
      + '`openid` and the userinfo endpoint. Off, the realm answers as spec 5.2 says: the scopes `openid`, `profile` and `email` are refused',
  }),
  signing_key_rotation_days: Nullable(Int32(), 'OpenID Connect: replace the realm\'s signing keys once this many days old, 1 to 365 (an hourly job; '
    + 'a retired key stays in the JWKS for an ID token\'s lifetime); null (default): only when an admin rotates them'),
  show_delegation_information: Type.Boolean({
    description: 'Show `delegated_token` (the identity provider\'s access token) in GET /me (default false); the same value as the '
      + 'identity provider\'s `show_delegation_information` (PUT /customers/{realm_uid}/identity_provider)',
  }),
  delegation_provider: Nullable(Type.String(),
    'A free-text label of the delegation provider (at most 100 characters), null (the default) for none. It changes '
      + 'nothing: the identity provider used for sign-in is set with PUT /customers/{realm_uid}/identity_provider'),
};

/** How the signup page turns a visitor into a user. */
const REALM_USER_STATUSES = ['active', 'inactive', 'awaiting_confirmation', 'awaiting_moderation'] as const;
/** One `enum` (not a union of constants): a wrong value is one message, "must be equal to one of the allowed values". */
export const RealmUserStatus = Type.Unsafe<typeof REALM_USER_STATUSES[number]>(Type.String({
  enum: [...REALM_USER_STATUSES],
  description: 'Only the users that are active, inactive, awaiting_confirmation (an activation_email sign-up before its link) '
    + 'or awaiting_moderation (a moderated sign-up no administrator has decided on yet); anything else answers 422',
}));

export const ACTIVATION_MODES = ['direct', 'otp', 'activation_email', 'moderated', 'invitation_only', 'disabled'] as const;
export type ActivationMode = typeof ACTIVATION_MODES[number];
const activationModeDescription = 'Sign-up on the realm\'s signup page: direct (default: the account works at once and the visitor is signed in), '
  + 'otp (signed in by a one-time code sent to the address), activation_email (the account stays inactive until the single-use link '
  + 'mailed to the address, valid 24 hours, is followed), moderated (an administrator activates the account), invitation_only (only '
  + 'through an invitation link, POST .../users/invitations), disabled (no sign-up: the signup page answers 404). An invitation '
  + 'link works in every mode but disabled';

const defaultLanguageDescription = `The language of the realm pages (and of the mails they send) when the browser's Accept-Language names none of ${LOCALES.join(', ')} (default en)`;

export const RealmBrandingModel = Type.Object({
  logo_url: Nullable(Type.String(), 'The logo shown above every realm page: an https address or a path on this server; null for none'),
  primary_color: Nullable(Type.String(), 'The colour of buttons and links, #rgb or #rrggbb (lower case); null for the default blue'),
  page_title: Nullable(Type.String(), 'Ends the title of every realm page in place of the realm\'s name; null for the name'),
}, { $id: 'RealmBranding', description: 'How the realm pages look' });

export const RealmSettingsModel = Type.Object({
  ...settingsFields,
  activation_mode: Type.Union(ACTIVATION_MODES.map((m) => Type.Literal(m)), { description: activationModeDescription }),
  default_language: Type.Union(LOCALES.map((l) => Type.Literal(l)), { description: defaultLanguageDescription }),
  branding: ref(RealmBrandingModel),
}, { $id: 'RealmSettings' });

export const RealmModel = Type.Object({
  uid: Type.String({ description: 'URL-safe identifier: letters, digits, "-" and "_"' }),
  name: Type.String(),
  active: Type.Boolean({ description: 'An inactive realm answers 404 on its pages and in the customers API' }),
  custom_domain: Nullable(Type.String(), 'A host name such as login.example.com, or null'),
  settings: ref(RealmSettingsModel),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'Realm', description: 'An end-user directory with its own sign-in pages, sessions and OAuth clients' });

export const RealmInput = Type.Partial(Type.Object({
  uid: Type.String({ description: 'Required on creation; unique; letters, digits, "-" and "_", at most 100' }),
  name: Type.String({ description: 'Required on creation' }),
  active: Type.Boolean(),
  custom_domain: Nullable(Type.String(), 'A host name (a scheme and a trailing "/" are taken off); null or "" for none'),
  settings: Type.Partial(Type.Object({
    ...settingsFields,
    activation_mode: Type.String({ description: `One of ${ACTIVATION_MODES.join(', ')}` }),
    default_language: Type.String({ description: `One of ${LOCALES.join(', ')}` }),
    branding: Type.Partial(Type.Object({
      logo_url: Nullable(Type.String(), `An absolute https address (its host a domain name or an IPv4 address) or a path starting with one "/", at most ${BRANDING_LIMITS.logo_url} characters, no blanks or backslashes; null or "" for none`),
      primary_color: Nullable(Type.String(), 'A hex colour, #rgb or #rrggbb; null or "" for the default'),
      page_title: Nullable(Type.String(), `At most ${BRANDING_LIMITS.page_title} characters, no control characters; null or "" for the realm's name`),
    }), { additionalProperties: false, description: 'Attributes left out keep their value' }),
  }), { additionalProperties: false }),
}), { additionalProperties: false });

export const CUSTOM_FIELD_TYPES = ['text', 'paragraph', 'number', 'date', 'checkbox', 'dropdown', 'choice'] as const;

export const CustomFieldModel = Type.Object({
  id: Id(),
  key: Type.String(),
  name: Type.String(),
  type: Type.Union(CUSTOM_FIELD_TYPES.map((t) => Type.Literal(t))),
  options: Type.Array(Type.String(), { description: 'The choices of a dropdown or choice field; empty for the other types' }),
  required: Type.Boolean(),
  unique: Type.Boolean({ description: 'No two users of the realm may hold the same value' }),
  visible: Type.Boolean({ description: 'Shown to the end user (customers GET /me)' }),
  editable: Type.Boolean({ description: 'Changeable by the end user (customers PUT /me) when also visible' }),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'CustomField', description: 'A field every user of the realm may carry; at most 20 per realm' });

export const CustomFieldInput = Type.Partial(Type.Object({
  key: Type.String({ description: 'Required on creation; unique in the realm; lowercase letters, digits and "_", starting with a letter (at most 50)' }),
  name: Type.String({ description: 'Required on creation' }),
  type: Type.String({ description: `Required on creation: ${CUSTOM_FIELD_TYPES.join(', ')}` }),
  options: Type.Array(Type.String(), { description: 'Required (at least one) for dropdown and choice' }),
  required: Type.Boolean(),
  unique: Type.Boolean(),
  visible: Type.Boolean({ description: 'Default true' }),
  editable: Type.Boolean({ description: 'Default false' }),
}), { additionalProperties: false });

// One schema with a list of types, not a union: with type coercion on, a union would turn `true` into "true".
export const FieldValue = Type.Unsafe<string | number | boolean | null>({
  type: ['string', 'number', 'boolean', 'null'],
  description: 'text and paragraph: a string; number: a number; date: YYYY-MM-DD; checkbox: true or false; dropdown and choice: one of the options; null clears',
});

export const CustomFieldValue = Type.Object({ key: Type.String(), value: FieldValue }, { additionalProperties: false });

export const AvatarModel = Type.Object({
  id: Id(),
  file_name: Type.String(),
  url_original: Type.String({ description: 'A path on this server' }),
  url_small: Type.String({ description: 'A path: a 64-pixel square WebP rendition (the original for an avatar set before renditions were made)' }),
  url_medium: Type.String({ description: 'A path: a 256-pixel square WebP rendition (the original for an avatar set before renditions were made)' }),
}, { $id: 'Avatar' });

export const RealmUserModel = Type.Object({
  id: Id(),
  uuid: Type.String({ format: 'uuid' }),
  email: Type.String({ format: 'email' }),
  username: Nullable(Type.String()),
  name: Type.String({ description: 'First name, last name and second last name' }),
  first_name: Type.String(),
  last_name: Type.String(),
  second_last_name: Type.String(),
  locale: Nullable(Type.String(), 'The language of the user\'s mails (en, es): the page\'s at sign-up; null: the realm\'s default language'),
  external_id: Nullable(Type.String()),
  active: Type.Boolean({ description: 'An inactive user cannot sign in and their credentials answer 401' }),
  confirmation_pending: Type.Boolean({
    description: 'Signed up in an activation_email realm and not yet confirmed by the mailed link (the user is inactive until then); '
      + 'an administrator\'s activation, or any change of `active`, clears it',
  }),
  moderation_pending: Type.Boolean({
    description: 'Signed up in a moderated realm and not yet decided on (the user is inactive until then); an administrator\'s '
      + 'activation, or any change of `active`, clears it',
  }),
  email_verified_at: Nullable(DateTime,
    'When the address was proven the user\'s: an activation link, a one-time code, a password reset link or an email '
      + 'change link sent to it was used, the address was invited, an administrator created the user or set the address, or the '
      + 'identity provider asserted email_verified; null while unproven (a direct sign-up, or an otp sign-up before its first code). '
      + 'An identity provider\'s account is linked to an existing user only when it is set'),
  locked_until: Nullable(DateTime, 'Set while ten failed sign-ins keep the user out (15 minutes)'),
  avatar: Nullable(ref(AvatarModel)),
  custom_fields: Type.Array(CustomFieldValue, { description: 'Every custom field of the realm, in creation order; null when unset' }),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'RealmUser', description: 'A user of a realm (admin view)' });

export const RealmUserInput = Type.Partial(Type.Object({
  email: Type.String({ description: 'Required on creation; unique in the realm regardless of case' }),
  username: Nullable(Type.String(), 'Unique in the realm regardless of case; letters, digits, ".", "-" and "_"'),
  password: Type.String({ description: 'Write only; at least 8 characters' }),
  first_name: Type.String(),
  last_name: Type.String(),
  second_last_name: Type.String(),
  locale: Nullable(Type.String({ maxLength: 20 }), 'The language of the user\'s mails (en, es); null: the realm\'s default language'),
  external_id: Nullable(Type.String()),
  active: Type.Boolean({ description: 'Setting false ends the user\'s sessions' }),
  custom_fields: Type.Array(CustomFieldValue, { description: 'Values by key; fields left out keep their value' }),
}), { additionalProperties: false });

export const RealmUserParams = Type.Object({ realm_uid: Type.String(), id: Id() });
export const RealmUserSessionParams = Type.Object({
  ...RealmUserParams.properties,
  // Any positive integer: one that names no live session of the user, past 2^31 too, answers 404 like any unknown id.
  session_id: Type.Integer({ minimum: 1, finite: true, description: 'The session\'s id, from GET .../sessions' }),
});

export const InvitationInput = Type.Object({
  email: Type.String({ maxLength: 320, description: 'The address invited; no user of the realm may have it yet' }),
}, { additionalProperties: false });

export const InvitationModel = Type.Object({
  email: Type.String({ description: 'The address invited, in lower case' }),
  expires_at: Type.String({ format: 'date-time', description: 'When the link stops working (7 days after the invitation)' }),
}, { $id: 'Invitation', description: 'An invitation mailed to sign up; its one-time link is only in the mail' });

export const SessionModel = Type.Object({
  id: Id(),
  created_at: DateTime,
  last_used_at: DateTime,
  user_agent: Nullable(Type.String(), 'The browser that signed in (its User-Agent, at most 500 characters); null when it sent none'),
  current: Type.Boolean({ description: 'Whether this is the session making the request (only with the session cookie as credential; always false in the admin API)' }),
}, {
  $id: 'ProfileSession',
  description: 'One of a realm user\'s active sessions (a browser sign-in). `last_used_at` is kept to the minute; '
    + 'a use of an OAuth access token counts as a use of the session it came from.',
});

export const SessionListModel = Type.Object({
  sessions: Type.Array(ref(SessionModel), { description: 'Most recently used first' }),
  meta: ref(Meta),
}, { $id: 'ProfileSessions', description: 'A page of a realm user\'s active sessions' });
