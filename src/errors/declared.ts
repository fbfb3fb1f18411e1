import { AppError, define } from './app-error.js';

// Failures any operation can answer whatever its own logic.
export const databaseUnreachable = define('ATR_DATABASE_UNREACHABLE', 'unavailable', 'The database cannot be reached right now: try again in a few seconds');
export const internalError = define('ATR_INTERNAL', 'internal', 'Internal server error');
export const badRequest = define('ATR_BAD_REQUEST', 'bad_request', 'The request is malformed', { message: (message: string) => message });
export const invalidJson = define('ATR_INVALID_JSON', 'bad_request', 'The request body is not valid JSON', {
  message: (reason: string) => `The request body is not valid JSON: ${reason}`,
});
export const badUrl = define('ATR_BAD_URL', 'bad_request', 'The URL has a broken escape or a NUL character', { message: (message: string) => message });
export const parameterTooLong = define('ATR_PARAMETER_TOO_LONG', 'uri_too_long', 'A path parameter is longer than any this server accepts', {
  message: (message: string) => message,
});
export const payloadTooLarge = define('ATR_PAYLOAD_TOO_LARGE', 'too_large', 'The request body is too large', { message: (message: string) => message });
export const unsupportedMediaType = define('ATR_UNSUPPORTED_MEDIA_TYPE', 'unsupported', 'The request body is not of a media type this operation takes', {
  message: (message: string) => message,
});
export const notAcceptable = define('ATR_NOT_ACCEPTABLE', 'not_acceptable', 'The multipart body cannot be read as declared', {
  message: (message: string) => message,
});
export const routeNotFound = define('ATR_ROUTE_NOT_FOUND', 'not_found', 'No operation or page at this address', {
  message: () => 'Not found', catalogs: [],
});
export const notFound = define('ATR_NOT_FOUND', 'not_found', 'The resource does not exist', {
  message: (what: string = 'Resource') => `${what} not found`,
});
export const unauthorized = define('ATR_UNAUTHENTICATED', 'unauthenticated', 'No credential, or a credential that is not valid', {
  message: (message: string = 'Not authenticated') => message, catalogs: ['admin'],
});
export const forbidden = define('ATR_FORBIDDEN', 'forbidden', 'The role does not allow this action', {
  message: (message: string = 'Your role does not allow this action') => message, catalogs: ['admin'],
});
export const tooManyAttempts = define('ATR_TOO_MANY_ATTEMPTS', 'rate_limited', 'Too many failed attempts: wait before trying again', {
  message: (lockedUntil: Date | null) => (lockedUntil ? `Too many failed attempts: try again after ${lockedUntil.toISOString()}` : 'Too many failed attempts'),
  catalogs: ['admin', 'profile'],
});

// Rules of the administration that refuse a well-formed request.
const admin = ['admin'] as const;
export const noSessionToEnd = define('ATR_NO_SESSION', 'conflict',
  'There is no session to end: this request was made with an access token, not the session cookie', { catalogs: admin });
export const lastOwner = define('ATR_LAST_OWNER', 'invalid', 'The account must keep at least one active member with the account_owner role', { catalogs: admin });
export const roleReadOnly = define('ATR_ROLE_READ_ONLY', 'invalid', 'The role cannot be changed', {
  message: (key: string) => `The role ${key} cannot be changed`, catalogs: admin,
});
export const builtInRoleKept = define('ATR_BUILT_IN_ROLE_KEPT', 'invalid', 'A built-in role cannot be deleted, only restored', {
  message: (key: string) => `The built-in role ${key} cannot be deleted; restore it instead`, catalogs: admin,
});
export const notBuiltInRole = define('ATR_NOT_BUILT_IN_ROLE', 'invalid', 'Only a built-in role can be restored', {
  message: (key: string) => `The role ${key} is not a built-in role`, catalogs: admin,
});
export const integrationMissing = define('ATR_INTEGRATION_MISSING', 'not_found', 'The realm has no such integration: an administrator sets it up first', {
  message: (name: string) => `This realm has no ${name} integration: an administrator sets it up first`, catalogs: ['admin', 'customers'],
});
export const identityProviderMissing = define('ATR_IDENTITY_PROVIDER_MISSING', 'not_found', 'This realm has no identity provider', { catalogs: admin });
export const cannotImpersonate = define('ATR_CANNOT_IMPERSONATE', 'invalid', 'The user cannot be impersonated', {
  message: (reason: string) => reason, catalogs: admin,
});
export const invitationNotFound = define('ATR_INVITATION_NOT_FOUND', 'not_found', 'No team invitation has this token', { catalogs: admin });
export const invitationGone = define('ATR_INVITATION_GONE', 'gone',
  'The team invitation was used, replaced by a newer one or has expired: ask an administrator to invite you again', { catalogs: admin });
export const signUpDisabled = define('ATR_SIGN_UP_DISABLED', 'conflict',
  'Sign-up is disabled in this realm (activation_mode disabled): nobody could accept an invitation', { catalogs: admin });

// Two-factor sign-in of team members.
const secondFactorStep = define('ATR_SECOND_FACTOR_REQUIRED', 'unauthenticated',
  'The password is right and the member has a second factor: finish signing in with POST /session/second_factor and the `challenge`', { catalogs: admin });
/** The 401 of a password accepted for a member with a second factor: its body carries the challenge of the second step. */
export const secondFactorRequired = Object.assign((challenge: string, methods: string[], extra: Record<string, unknown> = {}) => {
  const message = 'Enter a code of your authenticator app, use a passkey or enter a recovery code to finish signing in';
  return new AppError(secondFactorStep.declaration, [message], {
    body: { errors: [message], code: secondFactorStep.declaration.code, challenge, second_factors: methods, ...extra },
  });
}, { declaration: secondFactorStep.declaration });
export const signInChallengeExpired = define('ATR_SIGN_IN_CHALLENGE_EXPIRED', 'unauthenticated',
  'The sign-in took too long or was already finished: sign in again with your password', { catalogs: admin });
export const secondFactorEnrolment = define('ATR_SECOND_FACTOR_ENROLMENT', 'forbidden',
  'The account requires a second factor: set one up (POST /two_factor/totp) before anything else', { catalogs: admin });
export const twoFactorState = define('ATR_TWO_FACTOR_STATE', 'conflict', 'The member\'s second factor does not allow this now', {
  message: (why: string) => why, catalogs: admin,
});

// Originations: a submission's state refuses the change (admin API and customers API alike).
const originations = ['admin', 'customers'] as const;
export const originationInUse = define('ATR_ORIGINATION_IN_USE', 'conflict', 'The origination has submissions: it cannot be deleted', { catalogs: admin });
export const submissionClosed = define('ATR_SUBMISSION_CLOSED', 'conflict', 'The submission is closed: it cannot be changed', {
  message: (status: string) => `The submission is ${status}: it cannot be changed`, catalogs: originations,
});
export const taskNotCurrent = define('ATR_TASK_NOT_CURRENT', 'conflict', 'The task is not the submission\'s current one', {
  message: (why: string) => why, catalogs: originations,
});
export const taskNotYours = define('ATR_TASK_NOT_YOURS', 'invalid', 'The task is not assigned to the caller', { message: (why: string) => why, catalogs: originations });

// Content: an entry's state refuses the change.
export const contentTypeChanged = define('ATR_CONTENT_TYPE_CHANGED', 'conflict',
  'The content type changed while the entry was being saved: send it again', { catalogs: admin });
export const entryNotPublished = define('ATR_ENTRY_NOT_PUBLISHED', 'conflict',
  'The entry is not published (in this locale): there is nothing to unpublish', { catalogs: admin });
export const deliveryStarted = define('ATR_DELIVERY_STARTED', 'conflict',
  'Only a scheduled delivery can be canceled: this one has started or ended', { catalogs: admin });
// Edit locks: someone else is editing the item.
export const locked = define('ATR_LOCKED', 'conflict', 'Another team member holds the edit lock on this item', {
  message: (holder: string, since: Date) => `${holder} is editing this item (since ${since.toISOString().slice(11, 16)} UTC); ask them or take the lock over`,
  catalogs: admin,
});
// Webhooks: a resend the endpoint's or the delivery's state refuses.
export const webhookEndpointInactive = define('ATR_WEBHOOK_INACTIVE', 'conflict',
  'The endpoint is not active: turn it on (PUT active: true) before resending', { catalogs: admin });
export const webhookDeliveryInFlight = define('ATR_WEBHOOK_IN_FLIGHT', 'conflict',
  'The delivery is being sent right now: look at its attempts again in a moment', { catalogs: admin });

// Spec 7 and the facts page: the customers API's one-time code checks.
const customers = ['customers'] as const;
export const otpCodeInvalid = define('ATR_OTP_CODE_INVALID', 'conflict', 'The code is not valid or has expired.', { catalogs: customers });
export const otpAttemptsExceeded = define('ATR_OTP_ATTEMPTS_EXCEEDED', 'rate_limited', 'You have exceeded the maximum number of attempts.', { catalogs: customers });

// Spec 7 and the facts page: the exact bodies of the customers API's 404 and 401 answers (the profile API shares its credential).
const credential = ['customers', 'profile'] as const;
export const realmNotFound = define('ATR_REALM_NOT_FOUND', 'not_found', 'Realm not found', { body: {}, catalogs: credential });
export const userNotFound = define('ATR_USER_SESSION', 'unauthenticated', 'user not found', {
  body: { error: { user_session: 'user not found' } }, catalogs: credential,
});
export const sessionExpired = define('ATR_GRANT_EXPIRED', 'unauthenticated', 'session expired', {
  body: { error: { grant_expired: 'session expired' } }, catalogs: credential,
});
// The customers API answers an unknown resource of the user, or another user's, like an unknown realm: 404 `{}` (spec 7).
export const submissionNotFound = define('ATR_SUBMISSION_NOT_FOUND', 'not_found', 'Submission not found', { body: {}, catalogs: customers });
export const notificationNotFound = define('ATR_NOTIFICATION_NOT_FOUND', 'not_found', 'Notification not found', { body: {}, catalogs: customers });
export const attachmentNotFound = define('ATR_ATTACHMENT_NOT_FOUND', 'not_found', 'Attachment not found', { body: {}, catalogs: customers });
// Spec 4.3 rule 4: a question_id that names no file question of the realm.
export const fileQuestionNotFound = define('ATR_FILE_QUESTION_NOT_FOUND', 'not_found', 'No file question has this question_id', { body: {}, catalogs: customers });

// Sites: the tree, the drafts or the review state refuses the change.
export const pathTaken = define('ATR_PATH_TAKEN', 'conflict', 'Another page of the site has this path in this locale', {
  message: (path: string, locale: string) => `Another page of the site has the path ${path} in ${locale}`, catalogs: admin,
});
export const pageHasChildren = define('ATR_PAGE_HAS_CHILDREN', 'conflict', 'The page has child pages: move or delete them first', { catalogs: admin });
export const nothingToPublish = define('ATR_NOTHING_TO_PUBLISH', 'conflict', 'The drafts are the same as the published version: there is nothing to publish', { catalogs: admin });
export const reviewRequired = define('ATR_REVIEW_REQUIRED', 'conflict',
  'The site requires review: only an approved review request of the current drafts can be published', { message: (why: string) => why, catalogs: admin });
export const reviewClosed = define('ATR_REVIEW_CLOSED', 'conflict', 'The review request is no longer open', {
  message: (status: string) => `The review request is ${status}: it cannot change`, catalogs: admin,
});

// Forms: the form no longer takes responses, or the client sends them too fast (every door of a form alike).
const formDoors = ['admin', 'content', 'customers'] as const;
export const formClosed = define('ATR_FORM_CLOSED', 'gone', 'The form is closed: it does not take responses now', {
  message: (why: string) => why, catalogs: formDoors,
});
export const formFull = define('ATR_FORM_FULL', 'gone', 'The form has received its maximum number of responses', { catalogs: formDoors });
export const formRateLimited = define('ATR_FORM_RATE_LIMITED', 'rate_limited', 'Too many responses from this address: wait before sending another', {
  message: (until: Date | null) => (until ? `Too many responses from this address: try again after ${until.toISOString()}` : 'Too many responses from this address'),
  catalogs: formDoors,
});
export const formNotFound = define('ATR_FORM_NOT_FOUND', 'not_found', 'Form not found', { body: {}, catalogs: ['customers'] });
