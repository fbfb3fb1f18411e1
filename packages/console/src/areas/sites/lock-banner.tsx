import { Alert, Button, Group, Text } from '@mantine/core';
import { ErrorView } from '../../components/error-view';
import { useI18n } from '../../i18n/i18n';
import type { LockState } from './use-edit-lock';
import { notify } from '../../components/notify';

/** An alert's title in the text colour: the alert's own colour misses 4.5:1 on its light background. */
export const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

interface LockBannerProps {
  state: LockState;
  /** Whether the member may take the lock over (site.publish on the site). */
  canTakeOver: boolean;
  onTakeOver(): void;
  onReadOnly(): void;
  /** The text being edited, offered to the clipboard when the lock was lost. */
  text(): string;
}

/** Says who edits the item when the member does not hold its lock, with what they can do about it. */
export function LockBanner({ state, canTakeOver, onTakeOver, onReadOnly, text }: LockBannerProps) {
  const { t, locale } = useI18n();
  if (state.status === 'taking' || state.status === 'held' || state.status === 'idle') return null;
  if (state.status === 'failed') return <ErrorView error={state.error} />;
  const since = state.since ? new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(new Date(state.since)) : '—';
  const takeOver = canTakeOver && <Button size="xs" color="red.9" onClick={onTakeOver}>{t('sites.takeOver')}</Button>;
  if (state.status === 'lost') {
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(text());
        notify(t('common.copied'));
      } catch {
        notify(t('sites.copyFailed'), 'red');
      }
    };
    return (
      <Alert color="red" role="alert" styles={READABLE_TITLE} title={t('sites.lockLostTitle', { name: state.name })} data-lock-banner="lost">
        <Text size="sm" mb="xs">{t('sites.lockLostText')}</Text>
        <Button size="xs" variant="default" onClick={() => void copy()}>{t('common.copy')}</Button>
      </Alert>
    );
  }
  return (
    <Alert color="yellow" role="alert" styles={READABLE_TITLE} title={t('sites.editedBy', { name: state.name, since })} data-lock-banner={state.status}>
      <Text size="sm" mb="xs">{t(state.status === 'refused' ? 'sites.lockedText' : 'sites.readOnlyText')}</Text>
      <Group gap="xs">
        {state.status === 'refused' && <Button size="xs" variant="default" onClick={onReadOnly}>{t('sites.openReadOnly')}</Button>}
        {takeOver}
      </Group>
    </Alert>
  );
}
