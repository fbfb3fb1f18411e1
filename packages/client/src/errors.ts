import type { AtriumErrorCode } from './generated/codes.js';

/** The body every catalog but the customers API answers an error with (and the customers API its 4xx but 401 and 404). */
export interface ErrorsBody {
  errors: string[];
  details?: { field: string; messages: string[] }[];
  /** In the admin and profile APIs only; every catalog sends it in the Atrium-Error-Code header. */
  code?: AtriumErrorCode;
}

/** The customers API's 401 bodies (spec 4.3): no such session, or one that ended. */
export type CustomersUnauthorizedBody = { error: { user_session: string } } | { error: { grant_expired: string } };

/**
 * An answer of 400 or above from an Atrium catalog, carrying the documented body and the error's stable
 * code (undefined only for an answer that did not come from Atrium, a proxy's say).
 */
export class AtriumError<Body = unknown> extends Error {
  readonly code: AtriumErrorCode | undefined;

  constructor(readonly status: number, readonly body: Body, readonly response: Response) {
    super(`${response.url ? `${new URL(response.url).pathname}: ` : ''}HTTP ${status}${describe(body)}`);
    this.name = 'AtriumError';
    this.code = codeOf(body, response);
  }
}

/** An error of the admin, content or profile API: `{errors, details?}`. */
export class AtriumApiError extends AtriumError<ErrorsBody> {
  override name = 'AtriumApiError';
}

/** The customers API's 401 when the bearer token names no session (`user_session`): sign in again. */
export class UserSessionError extends AtriumError<CustomersUnauthorizedBody> {
  override name = 'UserSessionError';
}

/** The customers API's 401 when the session expired or was revoked (`grant_expired`): refresh or sign in again. */
export class GrantExpiredError extends AtriumError<CustomersUnauthorizedBody> {
  override name = 'GrantExpiredError';
}

/** The customers API's 404 `{}`: no such realm, or none active. */
export class RealmNotFoundError extends AtriumError<Record<string, never>> {
  override name = 'RealmNotFoundError';
}

function codeOf(body: unknown, response: Response): AtriumErrorCode | undefined {
  const inBody = (body as Partial<ErrorsBody> | null)?.code;
  return inBody ?? (response.headers.get('atrium-error-code') as AtriumErrorCode | null) ?? undefined;
}

function describe(body: unknown): string {
  const errors = (body as Partial<ErrorsBody> | null)?.errors;
  return Array.isArray(errors) && errors.length ? `: ${errors.join('; ')}` : '';
}

/** Reads an error answer into the typed error its catalog documents. */
export async function errorOf(response: Response, customers: boolean): Promise<AtriumError> {
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    // not JSON: kept as text
  }
  if (customers && response.status === 401) {
    const error = (body as { error?: Record<string, unknown> } | null)?.error ?? {};
    if ('grant_expired' in error) return new GrantExpiredError(401, body as CustomersUnauthorizedBody, response);
    return new UserSessionError(401, body as CustomersUnauthorizedBody, response);
  }
  if (customers && response.status === 404) return new RealmNotFoundError(404, {}, response);
  if (typeof body === 'object' && body !== null && Array.isArray((body as ErrorsBody).errors)) {
    return new AtriumApiError(response.status, body as ErrorsBody, response);
  }
  return new AtriumError(response.status, body, response);
}
