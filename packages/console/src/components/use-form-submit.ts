import { useState } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import { showFieldErrors } from './form-error';

/** A form's submit handler: clears old errors, puts a 422's messages on their fields and keeps the error for FormError. */
export function useFormSubmit<Values>(form: UseFormReturnType<Values>, onSubmit: (values: Values) => Promise<unknown>) {
  const [error, setError] = useState<unknown>(null);
  const submit = form.onSubmit(async (values) => {
    form.clearErrors();
    setError(null);
    try {
      await onSubmit(values);
    } catch (caught) {
      showFieldErrors(form, caught);
      setError(caught);
    }
  });
  return { submit, error };
}
