import { notifications, notificationsStore } from '@mantine/notifications';

/** As many messages as stay on screen at once (Mantine's default limit). */
const SHOWN = 5;

/**
 * Shows a confirmation ("Saved") or, in red, a failure, at once. Mantine queues a message behind a full stack until one
 * closes, and the stack's timers pause while the pointer rests on it: after a few quick edits "Saved" appeared seconds
 * late. Here the oldest message makes way for the new one instead.
 */
export function notify(message: string, color?: 'red'): void {
  const { notifications: shown, queue } = notificationsStore.getState();
  for (const old of [...shown, ...queue].slice(0, Math.max(0, shown.length + queue.length - SHOWN + 1))) {
    if (old.id) notifications.hide(old.id);
  }
  notifications.show(color ? { color, message } : { message });
}
