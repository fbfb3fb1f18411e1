import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { DrizzleQueryError } from 'drizzle-orm';

export interface FieldError {
  field: string;
  messages: string[];
}

/**
 * Every error a client can be shown, each declared once below with a stable code (as Fastify's
 * lib/errors.js does). Operations throw these; the one handler below turns them into the catalog's
 * documented body. `body` replaces the usual `{errors}` shape where a catalog fixes its own (the
 * customers API's 401 and 404, OAuth's RFC 6749 errors).
 */
export class AppError extends Error {
  readonly code: string;
  /** Headers the answer carries besides the body (an OAuth invalid_client's Basic challenge). */
  headers?: Record<string, string>;

  constructor(
    readonly status: number,
    readonly messages: string[],
    readonly details?: FieldError[],
    readonly body?: Record<string, unknown>,
    code?: string,
  ) {
    super(messages.join('; ') || `HTTP ${status}`);
    this.code = code ?? `ATR_HTTP_${status}`;
  }
}

/** Declares an error: its stable code, its status, and the text a client reads. */
function define<A extends unknown[]>(code: string, status: number, message: (...args: A) => string, body?: Record<string, unknown>) {
  return (...args: A) => new AppError(status, [message(...args)], undefined, body, code);
}

export const databaseUnreachable = define('ATR_DATABASE_UNREACHABLE', 503, () => 'The database cannot be reached right now: try again in a few seconds');

export const badRequest = define('ATR_BAD_REQUEST', 400, (message: string) => message);
export const unauthorized = define('ATR_UNAUTHENTICATED', 401, (message: string = 'Not authenticated') => message);
export const forbidden = define('ATR_FORBIDDEN', 403, (message: string = 'Your role does not allow this action') => message);
export const notFound = define('ATR_NOT_FOUND', 404, (what: string = 'Resource') => `${what} not found`);
export const payloadTooLarge = define('ATR_PAYLOAD_TOO_LARGE', 413, (message: string) => message);
export const unsupportedMediaType = define('ATR_UNSUPPORTED_MEDIA_TYPE', 415, (message: string) => message);
export const tooManyAttempts = define('ATR_TOO_MANY_ATTEMPTS', 429, (lockedUntil: Date | null) =>
  (lockedUntil ? `Too many failed attempts: try again after ${lockedUntil.toISOString()}` : 'Too many failed attempts'));

// Rules of the administration that refuse a well-formed request.
export const noSessionToEnd = define('ATR_NO_SESSION', 409, () => 'There is no session to end: this request was made with an access token, not the session cookie');
export const lastOwner = define('ATR_LAST_OWNER', 422, () => 'The account must keep at least one active member with the account_owner role');
export const roleReadOnly = define('ATR_ROLE_READ_ONLY', 422, (key: string) => `The role ${key} cannot be changed`);
export const builtInRoleKept = define('ATR_BUILT_IN_ROLE_KEPT', 422, (key: string) => `The built-in role ${key} cannot be deleted; restore it instead`);
export const notBuiltInRole = define('ATR_NOT_BUILT_IN_ROLE', 422, (key: string) => `The role ${key} is not a built-in role`);
export const integrationMissing = define('ATR_INTEGRATION_MISSING', 404, (name: string) =>
  `This realm has no ${name} integration: an administrator sets it up first`);
export const identityProviderMissing = define('ATR_IDENTITY_PROVIDER_MISSING', 404, () => 'This realm has no identity provider');
export const cannotImpersonate = define('ATR_CANNOT_IMPERSONATE', 422, (reason: string) => reason);
export const signUpDisabled = define('ATR_SIGN_UP_DISABLED', 409, () =>
  'Sign-up is disabled in this realm (activation_mode disabled): nobody could accept an invitation');

// Originations: a submission's state refuses the change (admin API and customers API alike).
export const originationInUse = define('ATR_ORIGINATION_IN_USE', 409, () => 'The origination has submissions: it cannot be deleted');
export const submissionClosed = define('ATR_SUBMISSION_CLOSED', 409, (status: string) => `The submission is ${status}: it cannot be changed`);
export const taskNotCurrent = define('ATR_TASK_NOT_CURRENT', 409, (why: string) => why);
export const taskNotYours = define('ATR_TASK_NOT_YOURS', 422, (why: string) => why);
// The customers API answers an unknown submission, or another user's, like an unknown realm: 404 `{}` (spec 7).
export const submissionNotFound = define('ATR_SUBMISSION_NOT_FOUND', 404, () => 'Submission not found', {});
// Content: an entry's state refuses the change.
export const contentTypeChanged = define('ATR_CONTENT_TYPE_CHANGED', 409, () => 'The content type changed while the entry was being saved: send it again');
export const entryNotPublished = define('ATR_ENTRY_NOT_PUBLISHED', 409, () => 'The entry is not published (in this locale): there is nothing to unpublish');
export const deliveryStarted = define('ATR_DELIVERY_STARTED', 409, () => 'Only a scheduled delivery can be canceled: this one has started or ended');
// Webhooks: a resend the endpoint's or the delivery's state refuses.
export const webhookEndpointInactive = define('ATR_WEBHOOK_INACTIVE', 409, () => 'The endpoint is not active: turn it on (PUT active: true) before resending');
export const webhookDeliveryInFlight = define('ATR_WEBHOOK_IN_FLIGHT', 409, () => 'The delivery is being sent right now: look at its attempts again in a moment');

// Spec 7 and the facts page: the customers API's one-time code checks.
export const otpCodeInvalid = define('ATR_OTP_CODE_INVALID', 409, () => 'The code is not valid or has expired.');
export const otpAttemptsExceeded = define('ATR_OTP_ATTEMPTS_EXCEEDED', 429, () => 'You have exceeded the maximum number of attempts.');

// Spec 7 and the facts page: the exact bodies of the customers API's 404 and 401 answers.
export const realmNotFound = define('ATR_REALM_NOT_FOUND', 404, () => 'Realm not found', {});
export const userNotFound = define('ATR_USER_SESSION', 401, () => 'user not found', { error: { user_session: 'user not found' } });
export const sessionExpired = define('ATR_GRANT_EXPIRED', 401, () => 'session expired', { error: { grant_expired: 'session expired' } });
// The customers API answers an unknown resource of the user like an unknown realm: 404 `{}`.
export const notificationNotFound = define('ATR_NOTIFICATION_NOT_FOUND', 404, () => 'Notification not found', {});
export const attachmentNotFound = define('ATR_ATTACHMENT_NOT_FOUND', 404, () => 'Attachment not found', {});
// Spec 4.3 rule 4: a question_id that names no file question of the realm.
export const fileQuestionNotFound = define('ATR_FILE_QUESTION_NOT_FOUND', 404, () => 'No file question has this question_id', {});

/** A 422 naming each invalid attribute, Rails style: `{errors: ["Email has already been taken"], details: [...]}`. */
export function invalid(details: FieldError[]): AppError {
  // Rails style: errors of the record as a whole are filed under `base` and read without a field name.
  const messages = details.flatMap((d) => d.messages.map((m) => (d.field === 'base' ? capitalize(m) : `${humanize(d.field)} ${m}`)));
  return new AppError(422, messages, details, undefined, 'ATR_INVALID');
}

export function invalidField(field: string, message: string): AppError {
  return invalid([{ field, messages: [message] }]);
}

/** Collects field errors while an operation checks its input, then throws them all at once. */
export class FieldErrors {
  private readonly list: FieldError[] = [];

  add(field: string, message: string): void {
    const found = this.list.find((d) => d.field === field);
    if (found) found.messages.push(message);
    else this.list.push({ field, messages: [message] });
  }

  get all(): FieldError[] {
    return this.list;
  }

  throwIfAny(): void {
    if (this.list.length) throw invalid(this.list);
  }
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const humanize = (field: string) => capitalize(field.replace(/[._]/g, ' ').trim());

export const ErrorBody = Type.Object({
  errors: Type.Array(Type.String()),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), messages: Type.Array(Type.String()) }))),
}, { $id: 'Error', description: 'Every failure of the admin, profile and content catalogs, and the 409/422/429 failures of the customers API' });

/** Maps a schema validation failure (Ajv) onto the attribute it concerns. */
function validationDetails(error: FastifyError): FieldError[] {
  const details = new FieldErrors();
  const context = error.validationContext ?? 'body';
  for (const item of error.validation ?? []) {
    const params = item.params as Record<string, unknown>;
    const path = item.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (item.keyword === 'required') {
      details.add(path ? `${path}.${String(params.missingProperty)}` : String(params.missingProperty), "can't be blank");
    } else if (item.keyword === 'additionalProperties') {
      details.add(path ? `${path}.${String(params.additionalProperty)}` : String(params.additionalProperty), 'is not a known attribute');
    } else {
      details.add(path || context, item.message ?? 'is invalid');
    }
  }
  return details.all;
}

/** Turns anything thrown while answering into the documented body; never lets a client crash the process. */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isDatabaseUnreachable(error)) {
    const unreachable = databaseUnreachable();
    unreachable.headers = { 'retry-after': String(RETRY_AFTER_SECONDS) };
    return unreachable;
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return invalid(validationDetails(fastifyError));
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest(`The request body is not valid JSON: ${fastifyError.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(fastifyError.message);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType(fastifyError.message);
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) return new AppError(status, [fastifyError.message]);
  return null;
}

export function errorBody(error: AppError): Record<string, unknown> {
  if (error.body) return error.body;
  return error.details ? { errors: error.messages, details: error.details } : { errors: error.messages };
}

/** What a 503 tells a client to wait: PostgreSQL restarting takes a few seconds, and the pool reconnects on the next query. */
const RETRY_AFTER_SECONDS = 5;
/** SQLSTATEs of a server shutting down or starting (class 57P) and of a broken connection (class 08). */
const UNREACHABLE_STATES = /^(57P0[123]|08...)$/;
const UNREACHABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/**
 * A database that cannot be reached (down, restarting, the connection cut), rather than a query that
 * failed: the request may well succeed again shortly, so it is a 503, not a 500.
 */
function isDatabaseUnreachable(error: unknown): boolean {
  const cause = error instanceof DrizzleQueryError ? error.cause : error;
  const e = cause as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (UNREACHABLE_STATES.test(code) || UNREACHABLE_ERRNOS.has(code)) return true;
  return typeof e?.message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect)/.test(e.message);
}

/** A database error (pg's or PGlite's): a SQLSTATE code and a severity. */
function isDatabaseError(error: unknown): error is Record<string, unknown> {
  const e = error as Record<string, unknown> | null;
  return typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string';
}

/**
 * What may be logged of an unexpected error. A failed query's message lists the statement's
 * parameters (password and secret hashes among them) and a database error's message and detail
 * quote the values refused: of those only the SQLSTATE code, the constraint, table and column and
 * the query text are kept.
 */
function loggableError(error: unknown): unknown {
  const failedQuery = error instanceof DrizzleQueryError ? error : undefined;
  const cause = failedQuery ? failedQuery.cause : error;
  if (!failedQuery && !isDatabaseError(cause)) return error;
  const db = isDatabaseError(cause) ? cause : {};
  return {
    type: 'DatabaseError', code: db.code, constraint: db.constraint, table: db.table, column: db.column, query: failedQuery?.query,
  };
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = toAppError(error);
  if (!known) {
    request.log.error({ err: loggableError(error) }, 'unexpected error');
    return reply.code(500).send({ errors: ['Internal server error'] });
  }
  if (known.headers) reply.headers(known.headers);
  return reply.code(known.status).send(errorBody(known));
}
