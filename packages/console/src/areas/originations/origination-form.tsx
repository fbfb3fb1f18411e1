import { Button, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';
import { newStep, originationValues, type OriginationValues } from './origination-values';
import { StepEditor } from './step-editor';

type Origination = AdminComponents['schemas']['Origination'];

/** Create or edit an origination: its name, its deadline in days (none when empty), and its steps of ordered tasks. */
export function OriginationForm({ item, onSubmit, onCancel }: EditFormProps<Origination, OriginationValues>) {
  const { t } = useI18n();
  const form = useForm<OriginationValues>({ initialValues: originationValues(item) });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'origination');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        <TextInput label={t('originations.name')} required {...form.getInputProps('name')} />
        <NumberInput label={t('originations.deadlineDays')} description={t('originations.deadlineHelp')} min={1} max={3650}
          allowDecimal={false} allowNegative={false} w={320} maw="100%" {...form.getInputProps('deadline_days')} />
        {form.values.steps.map((_, index) => <StepEditor key={index} form={form} index={index} />)}
        <Button variant="default" onClick={() => form.insertListItem('steps', newStep())} style={{ alignSelf: 'flex-start' }}>
          {t('originations.addStep')}
        </Button>
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
