import { AppError } from '../http/errors.js';

/**
 * An OAuth error answered as RFC 6749 section 5.2 fixes it: `{"error", "error_description"}`.
 * It is an AppError with a fixed body, so the shared handler answers it.
 */
export function oauthError(error: string, description: string, status = 400): AppError {
  return new AppError(status, [description], undefined, { error, error_description: description });
}

export const invalidRequest = (description: string) => oauthError('invalid_request', description);
export const invalidClient = (description = 'client authentication failed') => oauthError('invalid_client', description, 401);
export const invalidGrant = (description: string) => oauthError('invalid_grant', description);
