import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { AdminComponents, AtriumPermission } from '@atrium/client';
import { admin, onSessionEnd, setCsrfToken } from '../api/client';
import { statusOf } from '../api/errors';
import { dropAllDrafts } from './drafts';

export type TeamMember = AdminComponents['schemas']['TeamMember'];
type SessionAnswer = AdminComponents['schemas']['AdminSession'];
type Permissions = SessionAnswer['permissions'];

type State =
  | { status: 'loading' }
  | { status: 'signed-out'; expired: boolean }
  | { status: 'signed-in'; member: TeamMember; permissions: Permissions };

interface Session {
  state: State;
  signIn(email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  /**
   * Whether the member holds this permission, on that realm or space uid when given, else anywhere.
   * The server stays the authority: this only hides actions.
   */
  can(permission: AtriumPermission, target?: string): boolean;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    admin.GET('/session').then(({ data }) => {
      const answer = data as SessionAnswer;
      setCsrfToken(answer.csrf_token ?? null);
      if (live) setState({ status: 'signed-in', member: answer.admin, permissions: answer.permissions });
    }, (error: unknown) => {
      if (live) setState({ status: 'signed-out', expired: false });
      if (statusOf(error) !== 401) console.warn(error);
    });
    const stop = onSessionEnd(() => {
      setCsrfToken(null);
      setState((current) => (current.status === 'signed-in' ? { status: 'signed-out', expired: true } : current));
    });
    return () => { live = false; stop(); };
  }, []);

  const signIn = useCallback(async (email: string, password: string) => {
    const { data } = await admin.POST('/session', { body: { email, password } });
    const answer = data as SessionAnswer;
    setCsrfToken(answer.csrf_token ?? null);
    setState({ status: 'signed-in', member: answer.admin, permissions: answer.permissions });
  }, []);

  const signOut = useCallback(async () => {
    try {
      await admin.DELETE('/session');
    } finally {
      setCsrfToken(null);
      dropAllDrafts();
      setState({ status: 'signed-out', expired: false });
    }
  }, []);

  const value = useMemo<Session>(() => ({
    state, signIn, signOut,
    can: (permission, target) => {
      if (state.status !== 'signed-in') return false;
      const { everywhere, targets } = state.permissions;
      return everywhere.includes(permission)
        || targets.some((held) => (target === undefined || held.target === target) && held.permissions.includes(permission));
    },
  }), [state, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
