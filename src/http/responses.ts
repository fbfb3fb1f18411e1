import { Type } from '@sinclair/typebox';
import { ErrorBody } from './errors.js';
import { ref } from './models.js';

const MEANING: Record<number, string> = {
  400: 'The request is malformed',
  401: 'No credential, or a credential that is not valid',
  403: 'The credential\'s role does not allow this action, or the CSRF header is missing',
  404: 'The resource does not exist',
  409: 'The request conflicts with the current state',
  410: 'The resource no longer takes this request (a closed or full form, a used or expired invitation)',
  413: 'The request body is too large',
  414: 'A path parameter is longer than any this server accepts',
  415: 'The request body is not of a media type this operation takes',
  422: 'The input is not valid; `details` names each attribute',
  429: 'Too many attempts',
  503: 'The database cannot be reached for a moment (restarting, say); `Retry-After` says when to try again',
};

/** The documented failure responses of an operation, all in the shared error shape. */
export function failures(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, { ...ref(ErrorBody), description: MEANING[status] }]));
}

export const NoContent = Type.Null({ description: 'No content' });
