import { useState, type FormEvent } from 'react';
import { Alert, Button, PasswordInput, Text } from '@mantine/core';
import { useNavigate, useParams } from '@tanstack/react-router';
import { admin } from '../../api/client';
import { fieldErrorsOf, messageOf, statusOf } from '../../api/errors';
import { CenteredForm } from '../../components/centered-form';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';

/** The page a team invitation's link opens: the invitee chooses a password, and is then signed in. */
export function InvitationPage() {
  const { t } = useI18n();
  const session = useSession();
  const navigate = useNavigate();
  const { token } = useParams({ from: '/invitation/$token' });
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFieldError(null);
    try {
      const { data } = await admin.POST('/team_members/invitations/accept', { body: { token, password } });
      await session.signIn(data!.email, password);
      await navigate({ href: '/admin/', replace: true });
    } catch (caught) {
      const status = statusOf(caught);
      if (status === 422) setFieldError(fieldErrorsOf(caught).password ?? messageOf(caught, t));
      else setError(status === 410 ? t('identity.invitationGone') : status === 404 ? t('identity.invitationUnknown') : messageOf(caught, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <CenteredForm id="invitation-title" title={t('identity.invitationTitle')} width={420} onSubmit={submit}>
      <Text size="sm">{t('identity.invitationIntro')}</Text>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <PasswordInput label={t('identity.newPassword')} autoComplete="new-password" required value={password}
        error={fieldError} aria-invalid={fieldError ? true : undefined} onChange={(e) => setPassword(e.currentTarget.value)} />
      <Button type="submit" loading={busy}>{t('identity.acceptInvitation')}</Button>
    </CenteredForm>
  );
}
