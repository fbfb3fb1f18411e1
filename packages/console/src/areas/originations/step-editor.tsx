import { Button, Fieldset, Group, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useI18n } from '../../i18n/i18n';
import { MoveButtons } from './move-buttons';
import { TaskEditor } from './task-editor';
import { newTask, type OriginationValues } from './origination-values';

/** One step of the form: its name and its tasks in order; moved, removed, or given another task. */
export function StepEditor({ form, index }: { form: UseFormReturnType<OriginationValues>; index: number }) {
  const { t } = useI18n();
  const path = `steps.${index}`;
  const steps = form.values.steps;
  return (
    <Fieldset legend={t('originations.stepN', { n: index + 1 })}>
      <Stack>
        <TextInput label={t('originations.stepName')} required {...form.getInputProps(`${path}.name`)} />
        {steps[index]!.tasks.map((_, task) => <TaskEditor key={task} form={form} step={index} index={task} />)}
        <Group justify="space-between">
          <Button size="xs" variant="default" onClick={() => form.insertListItem(`${path}.tasks`, newTask())}>{t('originations.addTask')}</Button>
          <Group gap="xs">
            <MoveButtons form={form} list="steps" index={index} count={steps.length} />
            {steps.length > 1 && <Button size="xs" variant="default" color="red" onClick={() => form.removeListItem('steps', index)}>{t('originations.removeStep')}</Button>}
          </Group>
        </Group>
      </Stack>
    </Fieldset>
  );
}
