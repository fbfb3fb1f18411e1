import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { AtriumError, type AdminComponents, type AtriumPermission } from '@atrium/client';
import { admin, onSessionEnd, setCsrfToken } from '../api/client';
import { statusOf } from '../api/errors';
import { dropAllDrafts } from './drafts';

export type TeamMember = AdminComponents['schemas']['TeamMember'];
type SessionAnswer = AdminComponents['schemas']['AdminSession'];
type Permissions = SessionAnswer['permissions'];

type State =
  | { status: 'loading' }
  | { status: 'signed-out'; expired: boolean }
  /** `mustEnrol`: the account requires a second factor and the member has none: only enrolment answers. */
  | { status: 'signed-in'; member: TeamMember; permissions: Permissions; mustEnrol: boolean };

/** What the second step of a sign-in takes: a code of the authenticator app, a passkey's answer, or a recovery code. */
export type SecondFactor = { totp: string } | { recovery_code: string } | { webauthn: unknown };

/**
 * The password was right and the member has a second factor: the challenge that `completeSignIn` takes, what the
 * member can finish with (`totp`, `webauthn`, `recovery_code`) and, with a passkey, the options for the browser.
 */
export type SignInStep = { done: true } | { done: false; challenge: string; methods: string[]; webauthnOptions: unknown };

interface Session {
  state: State;
  signIn(email: string, password: string): Promise<SignInStep>;
  completeSignIn(challenge: string, factor: SecondFactor): Promise<void>;
  /** The second factor was set up: the session reaches everything again. */
  enrolled(): void;
  signOut(): Promise<void>;
  /**
   * Whether the member holds this permission, on that realm or space uid when given, else anywhere.
   * The server stays the authority: this only hides actions.
   */
  can(permission: AtriumPermission, target?: string): boolean;
}

const SessionContext = createContext<Session | null>(null);

const signedIn = (answer: SessionAnswer): State => ({
  status: 'signed-in', member: answer.admin, permissions: answer.permissions, mustEnrol: answer.second_factor_enrolment_required === true,
});

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    admin.GET('/session').then(({ data }) => {
      const answer = data as SessionAnswer;
      setCsrfToken(answer.csrf_token ?? null);
      if (live) setState(signedIn(answer));
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

  const begin = useCallback((answer: SessionAnswer) => {
    setCsrfToken(answer.csrf_token ?? null);
    setState(signedIn(answer));
  }, []);

  const signIn = useCallback(async (email: string, password: string): Promise<SignInStep> => {
    try {
      const { data } = await admin.POST('/session', { body: { email, password } });
      begin(data as SessionAnswer);
      return { done: true };
    } catch (error) {
      const body = error instanceof AtriumError ? error.body as { challenge?: string; second_factors?: string[]; webauthn_options?: unknown } | null : null;
      if (error instanceof AtriumError && error.code === 'ATR_SECOND_FACTOR_REQUIRED' && body?.challenge) {
        return { done: false, challenge: body.challenge, methods: body.second_factors ?? ['totp', 'recovery_code'], webauthnOptions: body.webauthn_options ?? null };
      }
      throw error;
    }
  }, [begin]);

  const completeSignIn = useCallback(async (challenge: string, factor: SecondFactor) => {
    const { data } = await admin.POST('/session/second_factor', { body: { challenge, ...factor } as never });
    begin(data as SessionAnswer);
  }, [begin]);

  const enrolled = useCallback(() => {
    setState((current) => (current.status === 'signed-in' ? { ...current, mustEnrol: false } : current));
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
    state, signIn, completeSignIn, enrolled, signOut,
    can: (permission, target) => {
      if (state.status !== 'signed-in' || state.mustEnrol) return false;
      const { everywhere, targets } = state.permissions;
      return everywhere.includes(permission)
        || targets.some((held) => (target === undefined || held.target === target) && held.permissions.includes(permission));
    },
  }), [state, signIn, completeSignIn, enrolled, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
