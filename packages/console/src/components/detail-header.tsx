import { Button, Group, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { confirmDelete } from './confirm-delete';
import { useI18n } from '../i18n/i18n';

/** A detail screen's heading with its Delete button (confirmed, then `remove` runs) for members who may delete. */
export function DetailHeader({ title, canDelete, remove }: { title: string; canDelete: boolean; remove(): Promise<unknown> }) {
  const { t } = useI18n();
  return (
    <Group justify="space-between">
      <Title order={1}>{title}</Title>
      {canDelete && (
        <Button color="red" variant="outline" onClick={() => confirmDelete(t, title, async () => {
          await remove();
          notifications.show({ message: t('common.deleted') });
        })}>{t('common.delete')}</Button>
      )}
    </Group>
  );
}
