import { Button, Group, Title } from '@mantine/core';
import { messageOf } from '../api/errors';
import { confirmDelete } from './confirm-delete';
import { useI18n } from '../i18n/i18n';
import { notify } from './notify';

/** A detail screen's heading with its Delete button (confirmed, then `remove` runs; a refusal shows its message) for members who may delete. */
export function DetailHeader({ title, canDelete, remove }: { title: string; canDelete: boolean; remove(): Promise<unknown> }) {
  const { t } = useI18n();
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start">
      <Title order={1} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{title}</Title>
      {canDelete && (
        <Button color="red" variant="outline" onClick={() => confirmDelete(t, title, async () => {
          try {
            await remove();
            notify(t('common.deleted'));
          } catch (error) {
            notify(messageOf(error, t), 'red');
          }
        })}>{t('common.delete')}</Button>
      )}
    </Group>
  );
}
