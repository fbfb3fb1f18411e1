import { Button, Group, Modal, Text } from '@mantine/core';
import { useBlocker } from '@tanstack/react-router';
import { useI18n } from '../i18n/i18n';

/** Asks before leaving a screen with changes not saved (a link, Back, or closing the tab). */
export function LeaveGuard({ dirty }: { dirty(): boolean }) {
  const { t } = useI18n();
  const blocker = useBlocker({ shouldBlockFn: () => dirty(), enableBeforeUnload: dirty, withResolver: true });
  return (
    <Modal opened={blocker.status === 'blocked'} onClose={() => blocker.reset?.()} title={t('common.leaveTitle')}>
      <Text>{t('common.leaveText')}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => blocker.reset?.()}>{t('common.stay')}</Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>{t('common.leave')}</Button>
      </Group>
    </Modal>
  );
}
