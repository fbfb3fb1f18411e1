import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Divider, PasswordInput, TextInput } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { AtriumError } from '@atrium/client';
import { signInMessageOf } from '../api/errors';
import { CenteredForm } from '../components/centered-form';
import { useI18n } from '../i18n/i18n';
import { useSession, type SignInStep } from './session';

/**
 * The sign-in form; for a member with a second factor, then a passkey ("Use a passkey": the browser asks for it
 * through `@simplewebauthn/browser`, loaded only then), the code of the authenticator app, or a recovery code. After signing in, goes back to the URL the member was on (`redirect`, same origin only).
 */
export function SignInPage() {
  const { t } = useI18n();
  const session = useSession();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { redirect?: string; expired?: boolean };
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  const [step, setStep] = useState<Extract<SignInStep, { done: false }> | null>(null);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const goOn = async () => {
    const target = search.redirect?.startsWith('/admin/') && !search.redirect.startsWith('/admin/sign-in') ? search.redirect : '/admin/';
    await navigate({ href: target, replace: true });
  };

  async function attempt(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      if (caught instanceof AtriumError && caught.code === 'ATR_SIGN_IN_CHALLENGE_EXPIRED') {
        setChallenge(null);
        setError(t('common.signInAgain'));
      } else {
        setError(challenge && caught instanceof AtriumError && caught.status === 401 ? t('common.wrongCode') : signInMessageOf(caught, t));
      }
    } finally {
      setBusy(false);
    }
  }

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    void attempt(async () => {
      const step = await session.signIn(email, password);
      if (step.done) {
        await goOn();
      } else {
        setStep(step);
        setRecovery(!step.methods.includes('totp'));
        setChallenge(step.challenge);
      }
    });
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    void attempt(async () => {
      await session.completeSignIn(challenge!, recovery ? { recovery_code: code } : { totp: code });
      await goOn();
    });
  };

  const usePasskey = () => {
    setBusy(true);
    setError(null);
    void (async () => {
      let answer: unknown;
      try {
        const { startAuthentication } = await import('@simplewebauthn/browser');
        answer = await startAuthentication({ optionsJSON: step!.webauthnOptions as never });
      } catch {
        setError(t('common.passkeyRefused'));
        setBusy(false);
        return;
      }
      setBusy(false);
      await attempt(async () => {
        await session.completeSignIn(challenge!, { webauthn: answer });
        await goOn();
      });
    })();
  };

  if (challenge) {
    const passkey = !!step?.webauthnOptions && step.methods.includes('webauthn');
    const totp = step?.methods.includes('totp') ?? true;
    return (
      <CenteredForm id="sign-in-title" title={t('common.secondFactorTitle')} width={380} onSubmit={submitCode}>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        {passkey && (
          <>
            <Button type="button" onClick={usePasskey} loading={busy} data-use-passkey>{t('common.usePasskey')}</Button>
            <Divider label={t('common.passkeyOr')} labelPosition="center" />
          </>
        )}
        <TextInput
          key={recovery ? 'recovery' : 'totp'} label={recovery ? t('common.recoveryCode') : t('common.authenticatorCode')}
          description={recovery ? t('common.recoveryCodeHint') : t('common.authenticatorCodeHint')}
          autoComplete="one-time-code" inputMode={recovery ? 'text' : 'numeric'} required
          value={code} onChange={(e) => setCode(e.currentTarget.value)}
        />
        <Button type="submit" variant={passkey ? 'default' : 'filled'} loading={busy}>{t('common.verify')}</Button>
        {totp && (
          <Anchor component="button" type="button" size="sm" onClick={() => { setRecovery(!recovery); setCode(''); setError(null); }}>
            {recovery ? t('common.useAuthenticator') : t('common.useRecoveryCode')}
          </Anchor>
        )}
      </CenteredForm>
    );
  }

  return (
    <CenteredForm id="sign-in-title" title={t('common.signInTitle')} width={380} onSubmit={submitPassword}>
      {search.expired && <Alert color="yellow" role="status">{t('common.sessionExpired')}</Alert>}
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <TextInput label={t('common.email')} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
      <PasswordInput label={t('common.password')} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
      <Button type="submit" loading={busy}>{t('common.signIn')}</Button>
    </CenteredForm>
  );
}
