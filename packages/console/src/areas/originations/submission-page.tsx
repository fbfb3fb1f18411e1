import { Alert, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorView, NotFound } from '../../components/error-view';
import { isRecordId } from '../../components/record-id';
import { AnchorLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { SubmissionActions } from './submission-actions';
import { SubmissionTasks } from './submission-tasks';
import { STATUS_COLORS, useTypeLabels } from './type-labels';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/submissions/$realmUid/$submissionId');

/** A submission: where it stands, its deadline and reviewer, its tasks with the answers and files; a reviewer's actions while open. */
export function SubmissionPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { status } = useTypeLabels();
  const { realmUid, submissionId } = route.useParams();
  const queryClient = useQueryClient();
  const valid = isRecordId(submissionId);
  const path = { realm_uid: realmUid, id: Number(submissionId) };
  const submission = api.useQuery('get', '/customers/{realm_uid}/submissions/{id}', { params: { path } }, { enabled: valid });

  if (!valid) return <NotFound />;
  if (submission.error) return <ErrorView error={submission.error} />;
  if (!submission.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = submission.data;
  const review = can('realm.originations.review', realmUid) && (current.status === 'pending' || current.status === 'not_started');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', '/customers/{realm_uid}/submissions/{id}'] });
  const facts: [string, React.ReactNode][] = [
    [t('originations.status'), <Badge color={STATUS_COLORS[current.status]}>{status(current.status)}</Badge>],
    [t('originations.progress'), current.progress],
    [t('originations.due'), current.due_deadline_at ? `${formatDate(current.due_deadline_at)} ${current.due_status_label ?? ''}` : current.due],
    [t('originations.extension'), current.due_extension_days ?? '—'],
    [t('originations.assignee'), current.assignee?.label ?? '—'],
    [t('originations.created'), formatDate(current.created_at)],
    [t('originations.started'), current.started_at ? formatDate(current.started_at) : '—'],
  ];

  return (
    <Stack>
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>{current.origination_name}</Title>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        <AnchorLink to="/realms/$realmUid/users/$userId" params={{ realmUid, userId: String(current.user.id) }} underline="always">{current.user.name || current.user.uuid}</AnchorLink>
        {' · '}{realmUid} · {current.uuid}
      </Text>
      {current.cancellation_reason && <Alert color="red" title={t('originations.canceledBecause')}>{current.cancellation_reason}</Alert>}
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          {facts.map(([label, value]) => (
            <div key={label}><Text size="sm" c="dimmed">{label}</Text><div>{value}</div></div>
          ))}
        </SimpleGrid>
      </Paper>
      {review && <SubmissionActions realmUid={realmUid} submission={current} onDone={refresh} />}
      <Group><Title order={2}>{t('originations.tasks')}</Title></Group>
      <SubmissionTasks realmUid={realmUid} submission={current} onComplete={review ? async (task) => {
        try {
          await admin.POST('/customers/{realm_uid}/submissions/{id}/tasks/{task_uid}/complete', { params: { path: { ...path, task_uid: task.task.uid } } });
          notify(t('originations.taskCompleted'));
          await refresh();
        } catch (error) {
          notify(messageOf(error, t), 'red');
        }
      } : undefined} />
    </Stack>
  );
}
