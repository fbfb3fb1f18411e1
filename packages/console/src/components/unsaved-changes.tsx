import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useRouterState } from '@tanstack/react-router';
import { onSessionEnd } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { dropDraft, keepDraft, readDraft } from '../session/drafts';
import { useSession } from '../session/session';
import { LeaveGuard } from './leave-guard';

export interface UnsavedChangesProps<Values> {
  /** The form's name; with the screen's path it keys the kept draft, so it names the item where a screen edits several (`custom-field:7`). */
  name: string;
  /** The values now (kept when the session ends). */
  values(): Values;
  /** Whether the values differ from those loaded or last saved. */
  changed(): boolean;
  /** Whether a save is under way: the navigation it makes is not asked about. */
  saving(): boolean;
  onRestore(values: Values): void;
}

/**
 * A form's unsaved changes: asked about before leaving the screen or closing the tab; kept in session storage when the
 * session ends before they are saved, and offered back (Restore / Discard) when the member signs in again and returns.
 */
export function UnsavedChanges<Values>({ name, values, changed, saving, onRestore }: UnsavedChangesProps<Values>) {
  const { t } = useI18n();
  const { state } = useSession();
  const member = state.status === 'signed-in' ? state.member.id : null;
  const key = `${name}:${useRouterState({ select: (router) => router.location.pathname })}`;
  const [kept, setKept] = useState(() => (member === null ? undefined : readDraft(key, member)));
  // Read when the session ends: the screen's key and the form's values at that moment.
  const latest = useRef({ key, member, values, changed });
  latest.current = { key, member, values, changed };
  useEffect(() => onSessionEnd(() => {
    const now = latest.current;
    if (now.member !== null && now.changed()) keepDraft(now.key, now.member, now.values());
  }), []);

  const settle = (restore: boolean) => {
    if (restore) onRestore(kept as Values);
    dropDraft(key);
    setKept(undefined);
  };
  return (
    <>
      <LeaveGuard dirty={() => changed() && !saving()} />
      {kept !== undefined && (
        <Alert color="blue" title={t('common.draftTitle')} data-kept-draft>
          <Text size="sm">{t('common.draftText')}</Text>
          <Group mt="sm">
            <Button size="xs" onClick={() => settle(true)}>{t('common.restore')}</Button>
            <Button size="xs" variant="default" onClick={() => settle(false)}>{t('common.discard')}</Button>
          </Group>
        </Alert>
      )}
    </>
  );
}

/**
 * The guard of an editor that keeps its values in React state: unsaved while their `snapshot` differs from the one loaded
 * or last saved; `save(run)` runs a save, not asked about if it navigates, and makes the values the saved ones once it succeeds.
 */
export function useUnsavedState<Values>(name: string, values: Values, onRestore: (values: Values) => void, snapshot: (values: Values) => string = JSON.stringify) {
  const [saved] = useState(() => ({ snapshot: snapshot(values), saving: false }));
  const guard: UnsavedChangesProps<Values> = {
    name, values: () => values, changed: () => snapshot(values) !== saved.snapshot, saving: () => saved.saving, onRestore,
  };
  const save = async (run: () => Promise<unknown>) => {
    saved.saving = true;
    try {
      await run();
      saved.snapshot = snapshot(values);
    } finally {
      saved.saving = false;
    }
  };
  return { guard, save };
}
