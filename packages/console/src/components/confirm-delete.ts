import { modals } from '@mantine/modals';
import type { Translate } from '../i18n/i18n';

/** Asks before deleting; the dialog traps focus, Esc cancels and focus returns to the button that opened it. */
export function confirmDelete(t: Translate, name: string, onConfirm: () => void): void {
  modals.openConfirmModal({
    title: t('common.delete'),
    children: t('common.deleteConfirm', { name }),
    labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
