import type { ReactNode } from 'react';
import { Stack } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';

/** The form of a submission's action in its dialog: its fields, a 422 on them, Cancel and Save. */
export function ActionForm<Values extends Record<string, unknown>>({ name, initialValues, onSubmit, onCancel, children }: {
  /** The action, naming its kept draft (see UnsavedChanges). */
  name: string;
  initialValues: Values;
  onSubmit(values: Values): Promise<unknown>;
  onCancel(): void;
  children(form: UseFormReturnType<Values>): ReactNode;
}) {
  const form = useForm<Values>({ initialValues });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, name);
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        {children(form)}
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
