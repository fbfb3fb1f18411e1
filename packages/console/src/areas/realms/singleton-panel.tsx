import type { ReactNode } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { statusOf } from '../../api/errors';
import { ErrorView } from '../../components/error-view';
import { confirmDelete } from '../../components/confirm-delete';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

/**
 * A realm setting that exists once or not at all (identity provider, Zendesk): a 404 means "none yet" and shows the
 * empty form; delete asks first.
 */
export function SingletonPanel({ title, emptyText, error, loading, exists, onDelete, children }: {
  title: string;
  emptyText: string;
  error: unknown;
  loading: boolean;
  exists: boolean;
  onDelete(): Promise<unknown>;
  children: ReactNode;
}) {
  const { t } = useI18n();
  if (error && statusOf(error) !== 404) return <ErrorView error={error} />;
  if (loading) return <Text role="status">{t('common.loading')}</Text>;
  return (
    <Paper withBorder p="md" maw={720}>
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3">{title}</Title>
          {exists && (
            <Button color="red" variant="outline" onClick={() => confirmDelete(t, title, async () => {
              await onDelete();
              notify(t('common.deleted'));
            })}>{t('common.delete')}</Button>
          )}
        </Group>
        {!exists && <Text>{emptyText}</Text>}
        {children}
      </Stack>
    </Paper>
  );
}
