import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { confirmDelete } from './confirm-delete';
import { useI18n } from '../i18n/i18n';
import { notify } from './notify';

/** Edit and delete buttons of a table row; delete asks first, then refreshes the list it names. */
export function RowActions({ name, listPath, onEdit, onDelete }: {
  name: string;
  /** The API path of the list to refresh after a delete. */
  listPath: string;
  onEdit(): void;
  onDelete(): Promise<unknown>;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" onClick={onEdit}>{t('common.edit')}</Button>
      <Button size="xs" variant="default" onClick={() => confirmDelete(t, name, async () => {
        await onDelete();
        notify(t('common.deleted'));
        await queryClient.invalidateQueries({ queryKey: ['get', listPath] });
      })}>{t('common.delete')}</Button>
    </Group>
  );
}
