import { useRef, useState } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import { showFieldErrors } from './form-error';
import type { UnsavedChangesProps } from './unsaved-changes';

/**
 * A form's submit handler: clears old errors, puts a 422's messages on their fields and keeps the error for FormError.
 * `guard` is for the form's `<UnsavedChanges>` (`name`: see there); a save that succeeds makes the values the saved ones.
 */
export function useFormSubmit<Values>(form: UseFormReturnType<Values>, onSubmit: (values: Values) => Promise<unknown>, name: string) {
  const [error, setError] = useState<unknown>(null);
  const saving = useRef(false);
  const submit = form.onSubmit(async (values) => {
    form.clearErrors();
    setError(null);
    saving.current = true;
    try {
      await onSubmit(values);
      // The values sent, not the current ones: what was typed while saving stays unsaved.
      form.resetDirty(values);
    } catch (caught) {
      showFieldErrors(form, caught);
      setError(caught);
    } finally {
      saving.current = false;
    }
  });
  const guard: UnsavedChangesProps<Values> = {
    name, values: () => form.getValues(), changed: () => form.isDirty(), saving: () => saving.current, onRestore: (values) => form.setValues(values),
  };
  return { submit, error, guard };
}
