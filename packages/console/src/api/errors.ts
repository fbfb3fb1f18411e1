import { AtriumError, type ErrorsBody } from '@atrium/client';
import type { Translate } from '../i18n/i18n';
import { fieldProblems, type FieldLabels } from './field-labels';

const detailOf = (error: AtriumError) => {
  const errors = (error.body as Partial<ErrorsBody> | null)?.errors;
  return Array.isArray(errors) ? errors.join(' ') : '';
};

/** A 422 names each attribute by the form's label for it (`labels`, else its humanized name), never by the server's path. */
const invalidDetailOf = (error: AtriumError, labels?: FieldLabels) => {
  const details = (error.body as Partial<ErrorsBody> | null)?.details;
  return details?.length ? fieldProblems(details, labels) : detailOf(error);
};

/** One message per kind of failure, never a bare "network error" for an answer the server gave; `labels`: see invalidDetailOf. */
export function messageOf(error: unknown, t: Translate, labels?: FieldLabels): string {
  if (!(error instanceof AtriumError)) return t('common.errorNetwork');
  const detail = detailOf(error);
  switch (error.status) {
    case 400: return t('common.error400', { detail });
    case 401: return t('common.error401');
    case 403: return t('common.error403');
    case 404: return t('common.error404');
    case 409: return t('common.error409', { detail });
    case 422: return t('common.error422', { detail: invalidDetailOf(error, labels) });
    case 429: return tooManyOf(error, t);
    default: return error.status >= 500 ? t('common.error5xx', { status: error.status }) : detail || t('common.errorNetwork');
  }
}

/** A 429 says how long to wait when the answer's `Retry-After` does (in seconds; rounded up to minutes past one). */
function tooManyOf(error: AtriumError, t: Translate): string {
  const header = error.response.headers.get('retry-after');
  const seconds = header && /^\d+$/.test(header.trim()) ? Number(header) : null;
  if (seconds === null) return t('common.error429');
  const minutes = Math.ceil(seconds / 60);
  const wait = seconds < 60
    ? (seconds === 1 ? t('common.waitSecond') : t('common.waitSeconds', { count: seconds }))
    : (minutes === 1 ? t('common.waitMinute') : t('common.waitMinutes', { count: minutes }));
  return t('common.error429Wait', { wait });
}

/** The sign-in form's message: a refused email and password say so (not "you are not signed in"). */
export function signInMessageOf(error: unknown, t: Translate): string {
  if (error instanceof AtriumError && error.status === 401 && error.code === 'ATR_UNAUTHENTICATED') return t('common.wrongCredentials');
  return messageOf(error, t);
}

/** The messages of a 422 by field name (`details[].field`), for the form to show on each field. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof AtriumError) || error.status !== 422) return {};
  const details = (error.body as Partial<ErrorsBody> | null)?.details ?? [];
  return Object.fromEntries(details.map((detail) => [detail.field, detail.messages.join(' ')]));
}

export const statusOf = (error: unknown): number | null => (error instanceof AtriumError ? error.status : null);
