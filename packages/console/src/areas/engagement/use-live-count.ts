import { useEffect, useRef, useState } from 'react';
import { admin } from '../../api/client';
import type { SegmentTree } from './segment-query';

type Match = { matches_count: number; users?: { id: number; email?: string | null; name?: string | null }[] };
export interface LiveCount { count: number | null; users: Match['users']; stale: boolean; error: unknown }

/**
 * Counts the users an unsaved tree matches, 300 ms after the last change; a newer tree aborts the older request.
 * With `withUsers` it asks preview_matches (count and first 10 users), otherwise count_matches. A null tree (one that
 * is not complete yet) is not counted.
 */
export function useLiveCount(realmUid: string | null, tree: SegmentTree | null, withUsers: boolean): LiveCount {
  const [state, setState] = useState<LiveCount>({ count: null, users: undefined, stale: true, error: null });
  const body = JSON.stringify(tree);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => {
    if (!realmUid) return;
    if (body === 'null') {
      controller.current?.abort();
      setState((previous) => ({ ...previous, stale: true, error: null }));
      return;
    }
    setState((previous) => ({ ...previous, stale: true }));
    const timer = setTimeout(() => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      const request = { realm_uid: realmUid, filters: JSON.parse(body) as never };
      const answer: Promise<{ data?: Match }> = withUsers
        ? admin.POST('/segments/preview_matches', { body: request, signal: current.signal })
        : admin.POST('/segments/count_matches', { body: request, signal: current.signal });
      answer.then(
        ({ data }) => { if (!current.signal.aborted) setState({ count: data!.matches_count, users: data!.users, stale: false, error: null }); },
        (error: unknown) => { if (!current.signal.aborted) setState((previous) => ({ ...previous, stale: true, error })); },
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [realmUid, body, withUsers]);
  useEffect(() => () => controller.current?.abort(), []);
  return state;
}
