import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  AppError, FieldErrors, badRequest, badUrl, databaseUnreachable, internalError, invalid, invalidJson, notAcceptable, routeNotFound,
  parameterTooLong, payloadTooLarge, unsupportedMediaType, type ErrorKind, type FieldError,
} from '../errors/index.js';
import { isDatabaseUnreachable, loggableError } from './database-errors.js';

const STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  not_acceptable: 406,
  conflict: 409,
  too_large: 413,
  uri_too_long: 414,
  unsupported: 415,
  gone: 410,
  invalid: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

export const statusOf = (kind: ErrorKind): number => STATUS[kind];

/** The header that carries every error's code, the only place of it where the body's shape is fixed (customers and content APIs, OAuth, realm pages). */
export const ERROR_CODE_HEADER = 'atrium-error-code';

const ERROR_DESCRIPTION = 'Every failure of the admin, profile and content catalogs, and the 409/422/429 failures of the customers API';
const details = Type.Optional(Type.Array(Type.Object({ field: Type.String(), messages: Type.Array(Type.String()) })));

export const ErrorBody = Type.Object({
  errors: Type.Array(Type.String()),
  details,
}, { $id: 'Error', description: ERROR_DESCRIPTION });

/** The `Error` model of the admin and profile catalogs, registered under the same id in their scopes. */
export const ErrorBodyWithCode = Type.Object({
  errors: Type.Array(Type.String()),
  details,
  code: Type.String({ description: 'The stable code (`ATR_…`), also in the Atrium-Error-Code header, which lists the codes each failure may carry' }),
}, { $id: 'Error', description: ERROR_DESCRIPTION });

/** The admin and profile catalogs carry the code in the body; the other bodies' shapes are fixed by the spec and the facts page. */
const CODE_IN_BODY = /^\/api\/(admin|profile)(?=[/?]|$)/;

export const carriesCodeInBody = (url: string): boolean => CODE_IN_BODY.test(url);

/** Maps a schema validation failure (Ajv) onto the attribute it concerns. */
function validationDetails(error: FastifyError): FieldError[] {
  const found = new FieldErrors();
  const context = error.validationContext ?? 'body';
  for (const item of error.validation ?? []) {
    const params = item.params as Record<string, unknown>;
    const path = item.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (item.keyword === 'required') {
      found.add(path ? `${path}.${String(params.missingProperty)}` : String(params.missingProperty), "can't be blank");
    } else if (item.keyword === 'additionalProperties') {
      found.add(path ? `${path}.${String(params.additionalProperty)}` : String(params.additionalProperty), 'is not a known attribute');
    } else {
      found.add(path || context, item.message ?? 'is invalid');
    }
  }
  return found.all;
}

/** The errors of Fastify and its plugins (a status and an `FST_` code), each as one of ours. */
function frameworkError(error: FastifyError): AppError | null {
  if (error.validation) return invalid(validationDetails(error));
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalidJson(error.message);
    case 'FST_ERR_BAD_URL':
      return badUrl(error.message);
  }
  switch (error.statusCode) {
    case 400: return badRequest(error.message);
    case 404: return new AppError(routeNotFound.declaration, [error.message]);
    case 406: return notAcceptable(error.message);
    case 413: return payloadTooLarge(error.message);
    case 414: return parameterTooLong(error.message);
    case 415: return unsupportedMediaType(error.message);
    default: return error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? badRequest(error.message) : null;
  }
}

/** Turns anything thrown while answering into the documented error; null for an unexpected one (a 500). */
export function toAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isDatabaseUnreachable(error)) {
    const unreachable = databaseUnreachable();
    unreachable.headers = { 'retry-after': String(RETRY_AFTER_SECONDS) };
    return unreachable;
  }
  return frameworkError(error as FastifyError);
}

/** What a 503 tells a client to wait: PostgreSQL restarting takes a few seconds, and the pool reconnects on the next query. */
const RETRY_AFTER_SECONDS = 5;

/** The code of the error a request was answered with, for its log line. */
export const errorCodeOf = (reply: FastifyReply): string | undefined => reply.getHeader(ERROR_CODE_HEADER) as string | undefined;

/**
 * Marks an answer as the error `error`: its status, its headers, and its code in the Atrium-Error-Code
 * header (read by the log line). Returns whether the body carries the code too.
 */
export function markError(error: AppError, request: FastifyRequest, reply: FastifyReply): boolean {
  reply.code(statusOf(error.kind)).header(ERROR_CODE_HEADER, error.code);
  if (error.headers) reply.headers(error.headers);
  return !error.body && carriesCodeInBody(request.url);
}

function errorBody(error: AppError, withCode: boolean): Record<string, unknown> {
  if (error.body) return error.body;
  return { errors: error.messages, ...(error.details ? { details: error.details } : {}), ...(withCode ? { code: error.code } : {}) };
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let known = toAppError(error);
  if (!known) {
    known = internalError();
    request.log.error({ err: loggableError(error), code: known.code }, 'unexpected error');
  }
  return reply.send(errorBody(known, markError(known, request, reply)));
}
