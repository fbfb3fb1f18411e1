import { useState } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import { showFieldErrors } from '../../components/form-error';

/** A form's submit handler that clears past errors, then puts a failure's messages on their fields; `error` feeds FormError. */
export function useFormSubmit<Values>(form: UseFormReturnType<Values>, save: (values: Values) => Promise<unknown>) {
  const [error, setError] = useState<unknown>(null);
  const submit = form.onSubmit(async (values) => {
    form.clearErrors();
    setError(null);
    try {
      await save(values);
    } catch (caught) {
      showFieldErrors(form, caught);
      setError(caught);
    }
  });
  return { submit, error };
}
