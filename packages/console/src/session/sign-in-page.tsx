import { useState, type FormEvent } from 'react';
import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { signInMessageOf } from '../api/errors';
import { CenteredForm } from '../components/centered-form';
import { useI18n } from '../i18n/i18n';
import { useSession } from './session';

/** The sign-in form; after signing in, goes back to the URL the member was on (`redirect`, same origin only). */
export function SignInPage() {
  const { t } = useI18n();
  const session = useSession();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { redirect?: string; expired?: boolean };
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await session.signIn(email, password);
      const target = search.redirect?.startsWith('/admin/') && !search.redirect.startsWith('/admin/sign-in') ? search.redirect : '/admin/';
      await navigate({ href: target, replace: true });
    } catch (caught) {
      setError(signInMessageOf(caught, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <CenteredForm id="sign-in-title" title={t('common.signInTitle')} width={380} onSubmit={submit}>
      {search.expired && <Alert color="yellow" role="status">{t('common.sessionExpired')}</Alert>}
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <TextInput label={t('common.email')} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
      <PasswordInput label={t('common.password')} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
      <Button type="submit" loading={busy}>{t('common.signIn')}</Button>
    </CenteredForm>
  );
}
