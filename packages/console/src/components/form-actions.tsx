import { Button, Group } from '@mantine/core';
import { useI18n } from '../i18n/i18n';

/** The props of a create-or-edit form: the item when editing, what saving does, and a cancel when in a dialog. */
export interface EditFormProps<Item, Values> {
  item?: Item;
  onSubmit(values: Values): Promise<unknown>;
  onCancel?(): void;
}

/** A form's Cancel (in a dialog) and Save buttons; `submitLabel` names what a form does instead of saving (Send...). */
export function FormActions({ onCancel, submitting, submitLabel }: { onCancel?(): void; submitting: boolean; submitLabel?: string }) {
  const { t } = useI18n();
  return (
    <Group justify="flex-end">
      {onCancel && <Button variant="default" onClick={onCancel}>{t('common.cancel')}</Button>}
      <Button type="submit" loading={submitting}>{submitLabel ?? t('common.save')}</Button>
    </Group>
  );
}
