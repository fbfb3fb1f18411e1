import { Button, Fieldset, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useI18n } from '../../i18n/i18n';
import { MoveButtons } from './move-buttons';
import { newQuestion, QUESTION_TYPES, TASK_TYPES, type OriginationValues } from './origination-values';
import { useTypeLabels } from './type-labels';

/** One task of a step: name and type; a pending review's text, an input task's questions (a choice's options one per line). */
export function TaskEditor({ form, step, index }: { form: UseFormReturnType<OriginationValues>; step: number; index: number }) {
  const { t } = useI18n();
  const { taskType, questionType } = useTypeLabels();
  const list = `steps.${step}.tasks`;
  const path = `${list}.${index}`;
  const tasks = form.values.steps[step]!.tasks;
  const task = tasks[index]!;
  const questionsError = form.errors[`${path}.questions`];
  return (
    <Fieldset legend={t('originations.taskN', { n: index + 1 })} variant="filled">
      <Stack gap="sm">
        <Group grow align="flex-start">
          <TextInput label={t('originations.taskName')} required {...form.getInputProps(`${path}.name`)} />
          <Select label={t('originations.taskType')} allowDeselect={false} data={TASK_TYPES.map((type) => ({ value: type, label: taskType(type) }))} {...form.getInputProps(`${path}.type`)} />
        </Group>
        {task.type === 'pending_review' && <Textarea label={t('originations.content')} autosize minRows={2} {...form.getInputProps(`${path}.content`)} />}
        {task.type === 'input' && task.questions.map((question, q) => (
          <Group key={q} align="flex-end" wrap="wrap">
            <TextInput label={t('originations.question')} required style={{ flex: 2, minWidth: 200 }} {...form.getInputProps(`${path}.questions.${q}.label`)} />
            <Select label={t('originations.questionType')} allowDeselect={false} style={{ flex: 1, minWidth: 140 }}
              data={QUESTION_TYPES.map((type) => ({ value: type, label: questionType(type) }))} {...form.getInputProps(`${path}.questions.${q}.type`)} />
            {question.type === 'choice' && <Textarea label={t('originations.options')} autosize minRows={2} style={{ flex: 2, minWidth: 200 }} {...form.getInputProps(`${path}.questions.${q}.options`)} />}
            <Button size="xs" variant="default" onClick={() => form.removeListItem(`${path}.questions`, q)}>{t('originations.removeQuestion')}</Button>
          </Group>
        ))}
        {questionsError && <Text c="var(--mantine-color-error)" size="sm" role="alert">{questionsError}</Text>}
        <Group justify="space-between">
          {task.type === 'input'
            ? <Button size="xs" variant="default" onClick={() => form.insertListItem(`${path}.questions`, newQuestion())}>{t('originations.addQuestion')}</Button>
            : <span />}
          <Group gap="xs">
            <MoveButtons form={form} list={list} index={index} count={tasks.length} />
            {tasks.length > 1 && <Button size="xs" variant="default" onClick={() => form.removeListItem(list, index)}>{t('originations.removeTask')}</Button>}
          </Group>
        </Group>
      </Stack>
    </Fieldset>
  );
}
