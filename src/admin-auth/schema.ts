import { Type } from '@sinclair/typebox';
import { DateTime, Id, ref, Nullable } from '../http/models.js';
import { LOCALES } from '../i18n/locale.js';

export const TeamMemberModel = Type.Object({
  id: Id(),
  email: Type.String({ format: 'email' }),
  name: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  active: Type.Boolean(),
  roles: Type.Array(Type.Object({ key: Type.String(), target: Nullable(Type.String()) })),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'TeamMember', description: 'A team member (administrator)' });

const RoleAssignmentInput = Type.Object({
  key: Type.String({ minLength: 1 }),
  target: Type.Optional(Nullable(Type.String())),
}, { additionalProperties: false });

const teamMemberFields = {
  email: Type.String({ description: 'Unique; compared without regard to case' }),
  name: Type.String({ description: 'Full name; split into first and last name when those are not given' }),
  first_name: Type.String(),
  last_name: Type.String(),
  password: Type.String({ description: 'At least 8 characters; write only' }),
  active: Type.Boolean({ description: 'An inactive member cannot sign in; deactivating ends their sessions and tokens' }),
  roles: Type.Array(RoleAssignmentInput, { description: 'Replaces the member\'s role assignments' }),
};

export const TeamMemberCreate = Type.Partial(Type.Object(teamMemberFields), { additionalProperties: false });
export const TeamMemberUpdate = TeamMemberCreate;

export const MemberInvitationInput = Type.Object({
  email: Type.String({ description: 'The address the one-time link is mailed to; compared without regard to case' }),
  first_name: Type.Optional(Type.String()),
  last_name: Type.Optional(Type.String()),
  roles: Type.Optional(Type.Array(RoleAssignmentInput, { description: 'The roles the member holds once the invitation is accepted' })),
  locale: Type.Optional(Type.Union(LOCALES.map((l) => Type.Literal(l)), { description: 'The language of the mail; English when left out' })),
}, { additionalProperties: false });

export const MemberInvitationModel = Type.Object({
  id: Id(),
  email: Type.String({ format: 'email' }),
  expires_at: DateTime,
  member: ref(TeamMemberModel),
}, { $id: 'MemberInvitation', description: 'An invitation mailed to a team member; the link itself goes only into the mail' });

export const InvitationAcceptInput = Type.Object({
  token: Type.String({ description: 'The token of the invitation link (`/admin/invitation/{token}`)' }),
  password: Type.String({ description: 'The member\'s new password: at least 8 characters, not a common one' }),
}, { additionalProperties: false });

export const InvitationAcceptedModel = Type.Object({
  email: Type.String({ format: 'email', description: 'The member\'s email, to sign in with (`POST /session`)' }),
}, { $id: 'InvitationAccepted' });

export const RoleModel = Type.Object({
  id: Id(),
  key: Type.String(),
  name: Type.String(),
  context: Type.String({ description: 'account, site, space or realm' }),
  read_only: Type.Boolean({ description: 'True for the owner role, which cannot be edited' }),
  restorable: Type.Boolean({ description: 'A built-in role whose defaults can be restored' }),
  users_count: Type.Integer({ description: 'Number of role assignments' }),
  permissions: Type.Array(Type.String()),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'Role' });

export const RolePermissionsModel = Type.Object({
  contexts: Type.Array(Type.Object({
    context: Type.String({ description: 'account, site, space or realm' }),
    permissions: Type.Array(Type.Object({ key: Type.String(), description: Type.String() }), { description: 'What a role of this context may carry' }),
  })),
}, { $id: 'RolePermissions', description: 'Every permission a role may carry, by role context' });

export const RoleInput = Type.Partial(Type.Object({
  key: Type.String({ description: 'Lowercase letters, digits and underscores; derived from the name when left out' }),
  name: Type.String(),
  context: Type.String({ description: 'account, site, space or realm; fixed once created' }),
  permissions: Type.Array(Type.String()),
}), { additionalProperties: false });

export const ApplicationModel = Type.Object({
  id: Id(),
  uid: Type.String({ description: 'The Application ID' }),
  name: Type.String(),
  description: Type.String(),
  redirect_uri: Type.String(),
  logout_url: Type.String({
    description: 'Called with a GET when a team member signs out: an http(s) address; one in a private, loopback or link-local range '
      + 'is refused (422) unless OUTBOUND_ALLOW_PRIVATE=1, and a name that resolves to one is not called',
  }),
  callback_url: Type.String({ description: 'Equal to the redirect URI' }),
  secret: Type.Optional(Type.String({ description: 'Only in the answer that created the application' })),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'ApiApplication', description: 'An API access application (spec 2.14)' });

export const ApplicationInput = Type.Partial(Type.Object({
  name: Type.String(),
  description: Type.String(),
  redirect_uri: Type.String(),
  logout_url: Type.String(),
}), { additionalProperties: false });

export const AccessTokenModel = Type.Object({
  id: Id(),
  token: Type.Optional(Type.String({ description: 'Only in the answer that created the token' })),
  application_id: Id(),
  application_name: Type.String({ description: 'The name of the application it was made for' }),
  created_at: DateTime,
}, { $id: 'AccessToken' });

export const AccessTokenInput = Type.Object({ application_id: Id() }, { additionalProperties: false });

export const SessionInput = Type.Object({
  email: Type.String(),
  password: Type.String(),
}, { additionalProperties: false });

export const EffectivePermissionsModel = Type.Object({
  everywhere: Type.Array(Type.String(), { description: 'Held on every realm and space: from account roles, and from roles without a target' }),
  targets: Type.Array(Type.Object({
    context: Type.String({ description: 'realm, space or site' }),
    target: Type.String({ description: 'The realm or space uid' }),
    permissions: Type.Array(Type.String()),
  }), { description: 'Held on one realm, space or site only (beyond `everywhere`)' }),
}, {
  $id: 'EffectivePermissions',
  description: 'What the member may do, for a client to hide what it cannot; the server still checks every request',
});

export const SessionModel = Type.Object({
  admin: ref(TeamMemberModel),
  csrf_token: Type.Optional(Type.String({ description: 'Send it as X-CSRF-Token on unsafe requests made with the session cookie; absent for an access token' })),
  credential: Type.Union([Type.Literal('session'), Type.Literal('access_token')], { description: 'What the request was signed in with' }),
  expires_at: Nullable(DateTime, 'When the session ends (it is not extended); null for an access token, which lasts until revoked'),
  permissions: ref(EffectivePermissionsModel),
  second_factor_enrolment_required: Type.Optional(Type.Boolean({
    description: 'Present (true) when the account requires a second factor and the member has none: until one is set up (`POST /two_factor/totp`), '
      + 'every other operation answers 403 `ATR_SECOND_FACTOR_ENROLMENT`',
  })),
}, { $id: 'AdminSession' });
export const SecondFactorInput = Type.Object({
  challenge: Type.String({ description: 'The `challenge` of the 401 `ATR_SECOND_FACTOR_REQUIRED` answer to `POST /session`' }),
  totp: Type.Optional(Type.String({ description: 'The six digits the authenticator app shows now' })),
  recovery_code: Type.Optional(Type.String({ description: 'One of the member\'s recovery codes instead; each works once' })),
  webauthn: Type.Optional(Type.Object({
    id: Type.String({ description: 'The passkey\'s credential id (base64url)' }),
    rawId: Type.String(),
    type: Type.String({ description: '`public-key`' }),
    response: Type.Object({
      clientDataJSON: Type.String(),
      authenticatorData: Type.String(),
      signature: Type.String(),
      userHandle: Type.Optional(Type.String()),
    }),
    authenticatorAttachment: Type.Optional(Type.String()),
    clientExtensionResults: Type.Optional(Type.Object({})),
  }, { description: 'Or a passkey\'s answer to `webauthn_options` (what `startAuthentication` of `@simplewebauthn/browser` answers)' })),
}, { additionalProperties: false });

const CredentialDescriptor = Type.Object({
  id: Type.String({ description: 'A credential id (base64url)' }),
  type: Type.String(),
  transports: Type.Optional(Type.Array(Type.String())),
});

/** What `navigator.credentials.get` takes, in the JSON form of `@simplewebauthn/browser`'s `startAuthentication`. */
export const PasskeyRequestOptionsModel = Type.Object({
  challenge: Type.String({ description: 'Base64url; derived from the sign-in\'s `challenge`, so it lives and ends with it' }),
  rpId: Type.Optional(Type.String({ description: 'The relying party: the host of the base address' })),
  timeout: Type.Optional(Type.Integer()),
  userVerification: Type.Optional(Type.String()),
  allowCredentials: Type.Optional(Type.Array(CredentialDescriptor, { description: 'The member\'s passkeys' })),
}, { $id: 'PasskeyRequestOptions', description: 'Options for a passkey to answer the second step of a sign-in' });

export const SignInRefusedModel = Type.Object({
  errors: Type.Array(Type.String()),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), messages: Type.Array(Type.String()) }))),
  code: Type.String({ description: '`ATR_UNAUTHENTICATED` for a wrong email, password or code; `ATR_SECOND_FACTOR_REQUIRED` for a right password of a member with a second factor' }),
  challenge: Type.Optional(Type.String({ description: 'With `ATR_SECOND_FACTOR_REQUIRED`: what `POST /session/second_factor` takes, for 5 minutes' })),
  second_factors: Type.Optional(Type.Array(Type.Union([Type.Literal('totp'), Type.Literal('webauthn'), Type.Literal('recovery_code')]), { description: 'What the member can finish with' })),
  webauthn_options: Type.Optional(ref(PasskeyRequestOptionsModel)),
}, { $id: 'SignInRefused', description: 'A refused sign-in, or the first step of one that needs a second factor' });

export const TwoFactorModel = Type.Object({
  totp: Type.Boolean({ description: 'An authenticator app (TOTP) is set up' }),
  passkeys: Type.Integer({ minimum: 0, description: 'How many passkeys the member has added' }),
  passkeys_available: Type.Boolean({ description: 'Passkeys can be used: the base address (`BASE_URL`) has a host name such as `localhost`; an IP address cannot be a passkey\'s relying party' }),
  recovery_codes_left: Type.Integer({ minimum: 0, maximum: 10, description: 'Recovery codes not used yet' }),
  required: Type.Boolean({ description: 'The account requires a second factor of every member (`second_factor_required` of `PUT /account`)' }),
}, { $id: 'TwoFactor', description: 'The signed-in member\'s second factor' });

export const TotpEnrolmentModel = Type.Object({
  secret: Type.String({ description: 'The base32 secret, for typing into the app by hand' }),
  otpauth_uri: Type.String({ description: 'The otpauth:// address the QR code holds' }),
  qr_code: Type.String({ description: '`otpauth_uri` as a QR code: an SVG image as a data URL' }),
}, { $id: 'TotpEnrolment', description: 'An authenticator app being set up: it counts once `POST /two_factor/totp/confirm` takes a code from it' });

export const TotpCodeInput = Type.Object({
  code: Type.String({ description: 'The six digits the authenticator app shows now' }),
}, { additionalProperties: false });

export const PasskeyModel = Type.Object({
  id: Id(),
  name: Type.String({ description: 'The member\'s name for it' }),
  transports: Type.Array(Type.String(), { description: 'How the browser reaches it (internal, usb, hybrid, ...)' }),
  created_at: DateTime,
  last_used_at: Nullable(DateTime, 'Its last sign-in; null before the first'),
}, { $id: 'Passkey', description: 'A passkey (WebAuthn credential) of the signed-in member, a second factor' });

export const PasskeyCreationOptionsModel = Type.Object({
  rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String({ description: 'The host of the base address' })) }),
  user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
  challenge: Type.String({ description: 'Base64url, 256 random bits; works once, for 5 minutes' }),
  pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.String() })),
  timeout: Type.Optional(Type.Integer()),
  excludeCredentials: Type.Optional(Type.Array(CredentialDescriptor, { description: 'The member\'s passkeys already added' })),
  authenticatorSelection: Type.Optional(Type.Object({
    authenticatorAttachment: Type.Optional(Type.String()),
    residentKey: Type.Optional(Type.String()),
    requireResidentKey: Type.Optional(Type.Boolean()),
    userVerification: Type.Optional(Type.String()),
  })),
  attestation: Type.Optional(Type.String()),
  hints: Type.Optional(Type.Array(Type.String())),
  extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) })),
}, { $id: 'PasskeyCreationOptions', description: 'What `navigator.credentials.create` takes, in the JSON form of `@simplewebauthn/browser`\'s `startRegistration`' });

export const PasskeyInput = Type.Object({
  name: Type.String({ maxLength: 100, description: 'A name to tell it apart, such as Work laptop' }),
  response: Type.Object({
    id: Type.String(),
    rawId: Type.String(),
    type: Type.String({ description: '`public-key`' }),
    response: Type.Object({
      clientDataJSON: Type.String(),
      attestationObject: Type.String(),
      authenticatorData: Type.Optional(Type.String()),
      transports: Type.Optional(Type.Array(Type.String())),
      publicKeyAlgorithm: Type.Optional(Type.Integer()),
      publicKey: Type.Optional(Type.String()),
    }),
    authenticatorAttachment: Type.Optional(Type.String()),
    clientExtensionResults: Type.Optional(Type.Object({})),
  }, { description: 'What `startRegistration` of `@simplewebauthn/browser` answered for `POST /two_factor/passkeys/options`' }),
}, { additionalProperties: false });

export const PasskeyAddedModel = Type.Object({
  passkey: ref(PasskeyModel),
  recovery_codes: Type.Optional(Type.Array(Type.String(), { description: 'Only when this passkey is the member\'s first second factor: ten recovery codes, shown this once' })),
}, { $id: 'PasskeyAdded' });

export const RecoveryCodesModel = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'Ten codes, each good for one sign-in in place of the app; shown only in this answer' }),
}, { $id: 'RecoveryCodes' });


export const IdParam = Type.Object({ id: Id() });
