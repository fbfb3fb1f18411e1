import { Alert } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { fieldErrorsOf, messageOf } from '../api/errors';
import type { FieldLabels } from '../api/field-labels';
import type { MessageKey } from '../i18n/catalogue';
import { useI18n, type Translate } from '../i18n/i18n';

/**
 * The message of a failed write, above the form (a 422's field messages also go on their fields: showFieldErrors);
 * `labels` names the attributes as the form's fields do (see FieldLabels).
 */
export function FormError({ error, labels }: { error: unknown; labels?: FieldLabels }) {
  const { t } = useI18n();
  if (!error) return null;
  return <Alert color="red" role="alert">{messageOf(error, t, labels)}</Alert>;
}

/** A form's labels for FormError from its message keys by path. */
export const labelsIn = (keys: Record<string, MessageKey>, t: Translate): FieldLabels =>
  Object.fromEntries(Object.entries(keys).map(([path, key]) => [path, t(key)]));

/** Puts each message of a 422 on the form field of the same name. */
export function showFieldErrors<Values>(form: UseFormReturnType<Values>, error: unknown): void {
  form.setErrors(fieldErrorsOf(error));
}
