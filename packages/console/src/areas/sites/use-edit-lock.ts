import { useCallback, useEffect, useRef, useState } from 'react';
import { AtriumError } from '@atrium/client';
import { admin } from '../../api/client';
import { statusOf } from '../../api/errors';

/** The heartbeat: a lock lives five minutes from its last renewal (docs/features/locks.md). */
export const HEARTBEAT_MS = 60_000;

export type LockKind = 'site_template' | 'site_file' | 'layout_page' | 'menu';
export interface LockHolder { name: string; since: string | null }

export type LockState =
  | { status: 'taking' }
  /** The member may not write the item: no lock is asked for. */
  | { status: 'idle' }
  | { status: 'held'; id: number }
  /** Someone else edits the item: the editor is read-only until the member takes the lock over. */
  | ({ status: 'refused' | 'read-only' } & LockHolder)
  /** The lock was taken over (or taken after it expired) while editing: the text stays, read-only, to be copied. */
  | ({ status: 'lost' } & LockHolder)
  | { status: 'failed'; error: unknown };

export const isLocked = (error: unknown) => error instanceof AtriumError && error.status === 409 && error.code === 'ATR_LOCKED';

/** Who holds the item's lock and since when, read from the lock list; the 409's own text when the list does not say. */
async function holderOf(type: LockKind, id: string, error: unknown): Promise<LockHolder> {
  try {
    const { data } = await admin.GET('/locks', { params: { query: { resource_type: type, resource_id: id } } });
    const lock = data?.locks[0];
    if (lock) return { name: lock.holder.name, since: lock.acquired_at };
  } catch { /* the message below names them too */ }
  const message = ((error as AtriumError<{ errors?: string[] }>).body?.errors ?? [])[0] ?? '';
  return { name: /^(.*) is editing/.exec(message)?.[1] ?? '?', since: null };
}

/**
 * The edit lock of an item while its editor is open: taken on open, renewed every minute, released on leave.
 * `null` for an item not created yet (nothing to lock); `enabled` false for a member who may only read it.
 */
export function useEditLock(type: LockKind, id: string | null, enabled: boolean) {
  const [state, setState] = useState<LockState>({ status: enabled ? 'taking' : 'idle' });
  const held = useRef<number | null>(null);
  const open = useRef(true);

  const take = useCallback(async (takeOver: boolean) => {
    if (id === null || !enabled) return;
    try {
      const { data } = await admin.POST('/locks', { body: { resource_type: type, resource_id: id, ...(takeOver ? { take_over: true } : {}) } });
      if (!open.current) {
        await admin.DELETE('/locks/{id}', { params: { path: { id: data!.id } } }).catch(() => undefined);
        return;
      }
      held.current = data!.id;
      setState({ status: 'held', id: data!.id });
    } catch (error) {
      if (!open.current) return;
      if (isLocked(error)) setState({ status: 'refused', ...await holderOf(type, id, error) });
      else setState({ status: 'failed', error });
    }
  }, [type, id, enabled]);

  const lose = useCallback(async (error: unknown) => {
    held.current = null;
    if (id !== null) setState({ status: 'lost', ...await holderOf(type, id, error) });
  }, [type, id]);

  useEffect(() => {
    open.current = true;
    void take(false);
    // Leaving the console altogether (a reload, another address, the tab closed): the release outlives the page.
    const release = (keepalive: boolean) => {
      const lock = held.current;
      held.current = null;
      if (lock !== null) void admin.DELETE('/locks/{id}', { params: { path: { id: lock } }, keepalive }).catch(() => undefined);
    };
    const onPageHide = () => release(true);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      open.current = false;
      window.removeEventListener('pagehide', onPageHide);
      release(false);
    };
  }, [take]);

  useEffect(() => {
    if (state.status !== 'held') return;
    const timer = setInterval(() => {
      admin.PUT('/locks/{id}', { params: { path: { id: state.id } } }).catch((error: unknown) => {
        if (isLocked(error)) void lose(error);
        // Released meanwhile (by an admin, or a second mount in development): take it again.
        else if (statusOf(error) === 404) void take(false);
      });
    }, HEARTBEAT_MS);
    return () => clearInterval(timer);
  }, [state, lose, take]);

  return {
    state,
    /** Whether the member may write now: the lock is theirs, or the item is new. */
    writable: enabled && (id === null || state.status === 'held'),
    takeOver: () => take(true),
    openReadOnly: () => setState((current) => (current.status === 'refused' ? { ...current, status: 'read-only' } : current)),
    /** For a save's failure: true (and the editor turns read-only) when it was a lock taken by someone else. */
    lostBy: (error: unknown): boolean => {
      if (!isLocked(error)) return false;
      void lose(error);
      return true;
    },
  };
}
