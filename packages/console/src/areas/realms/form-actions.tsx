import { Button, Group } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';

/** Cancel (when given) and Save at the foot of a form. */
export function FormActions({ submitting, onCancel }: { submitting: boolean; onCancel?(): void }) {
  const { t } = useI18n();
  return (
    <Group justify="flex-end">
      {onCancel && <Button variant="default" onClick={onCancel}>{t('common.cancel')}</Button>}
      <Button type="submit" loading={submitting}>{t('common.save')}</Button>
    </Group>
  );
}
