import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { useI18n } from '../../i18n/i18n';
import { STATUS_COLORS, useTypeLabels } from './type-labels';

type Submission = AdminComponents['schemas']['Submission'];
type TaskResponse = Submission['tasks'][number];
type Question = NonNullable<TaskResponse['task']['questions']>[number];

/** A file answer links to the reviewers' read of the attachment (by the id the answer holds); other answers show as text. */
function Answer({ realmUid, question, value }: { realmUid: string; question: Question; value: string | number | null | undefined }) {
  const { t } = useI18n();
  if (value === undefined || value === '') return <Text span c="dimmed">—</Text>;
  if (question.type !== 'file') return <Text span style={{ whiteSpace: 'pre-wrap' }}>{String(value)}</Text>;
  if (value === null) return <Text span c="dimmed">{t('originations.fileDeleted')}</Text>;
  return <Anchor href={`/api/admin/customers/${encodeURIComponent(realmUid)}/attachments/${value}`} download>{t('originations.downloadFile', { id: value })}</Anchor>;
}

/** The submission's tasks step by step: status, reviewer, an input task's answers, a pending review's text; the next review task can be completed. */
export function SubmissionTasks({ realmUid, submission, onComplete }: { realmUid: string; submission: Submission; onComplete?(task: TaskResponse): void }) {
  const { t } = useI18n();
  const { taskType, status } = useTypeLabels();
  const steps = [...new Set(submission.tasks.map((task) => task.task.step_name))];
  return (
    <Stack>
      {steps.map((step) => (
        <Paper key={step} withBorder p="md">
          <Title order={3} mb="sm">{step}</Title>
          <Stack>
            {submission.tasks.filter((task) => task.task.step_name === step).map((task) => (
              <Stack key={task.task.uid} gap="xs">
                <Group justify="space-between">
                  <Text fw={700}>{task.task.name} · {taskType(task.task.type)}</Text>
                  <Group gap="xs">
                    {task.assignee_label && <Text size="sm">{t('originations.reviewer')}: {task.assignee_label}</Text>}
                    <Badge color={STATUS_COLORS[task.status]}>{status(task.status)}</Badge>
                    {onComplete && task.status === 'pending' && (task.task.type === 'pending_review' || task.task.type === 'validation') && (
                      <Button size="xs" onClick={() => onComplete(task)}>{t('originations.completeTask')}</Button>
                    )}
                  </Group>
                </Group>
                {task.content && <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{task.content}</Text>}
                {task.task.questions && (
                  <Table withTableBorder>
                    <Table.Thead>
                      <Table.Tr><Table.Th scope="col">{t('originations.question')}</Table.Th><Table.Th scope="col">{t('originations.answer')}</Table.Th></Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {task.task.questions.map((question) => (
                        <Table.Tr key={question.id}>
                          <Table.Td>{question.label}</Table.Td>
                          <Table.Td style={{ overflowWrap: 'anywhere' }}><Answer realmUid={realmUid} question={question} value={task.fields?.[String(question.id)]} /></Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </Stack>
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
