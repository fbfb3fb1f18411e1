import { useState, type FormEvent } from 'react';
import { Alert, Button, Code, CopyButton, Group, Image, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { fieldErrorsOf, messageOf } from '../../api/errors';
import { ErrorView } from '../../components/error-view';
import { PasskeysPart } from './passkeys-part';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

type Enrolment = AdminComponents['schemas']['TotpEnrolment'];

/**
 * The signed-in member's own second factor: set up an authenticator app (QR code, then a code from it) and
 * passkeys, see the recovery codes once, regenerate them, remove the app or a passkey. `onEnrolled`: a first
 * second factor was just turned on.
 */
export function TwoFactorSection({ onEnrolled }: { onEnrolled?(): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const status = api.useQuery('get', '/two_factor');
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', '/two_factor'] });

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(fieldErrorsOf(caught).code ? t('identity.codeNotCurrent') : messageOf(caught, t));
    } finally {
      setBusy(false);
    }
  }

  const start = () => run(async () => {
    const { data } = await admin.POST('/two_factor/totp');
    setEnrolment(data as Enrolment);
  });

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { data } = await admin.POST('/two_factor/totp/confirm', { body: { code } });
      setCodes(data!.recovery_codes);
      setEnrolment(null);
      setCode('');
      await refresh();
    });
  };

  const regenerate = () => modals.openConfirmModal({
    title: t('identity.regenerateCodes'),
    children: t('identity.regenerateCodesConfirm'),
    labels: { confirm: t('identity.regenerateCodes'), cancel: t('common.cancel') },
    onConfirm: () => void run(async () => {
      const { data } = await admin.POST('/two_factor/recovery_codes');
      setCodes(data!.recovery_codes);
      await refresh();
    }),
  });

  const remove = () => {
    const onlyApp = (status.data?.passkeys ?? 0) === 0;
    const label = onlyApp ? t('identity.removeTwoFactor') : t('identity.removeApp');
    modals.openConfirmModal({
      title: label,
      children: onlyApp ? t('identity.removeTwoFactorConfirm') : t('identity.removeAppConfirm'),
      labels: { confirm: label, cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => void run(async () => {
        await admin.DELETE('/two_factor/totp');
        notify(onlyApp ? t('identity.twoFactorRemoved') : t('identity.appRemoved'));
        await refresh();
      }),
    });
  };

  if (status.error) return <ErrorView error={status.error} />;
  const current = status.data;
  return (
    <Paper withBorder p="md" maw={560} component="section" aria-labelledby="two-factor-title">
      <Stack>
        <Title order={2} size="h3" id="two-factor-title">{t('identity.twoFactor')}</Title>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        {codes && (
          <Stack>
            <Alert color="yellow" role="status">{t('identity.recoveryCodesOnce')}</Alert>
            <Code block aria-label={t('identity.recoveryCodes')} data-recovery-codes>{codes.join('\n')}</Code>
            <Group>
              <CopyButton value={codes.join('\n')}>
                {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? t('common.copied') : t('common.copy')}</Button>}
              </CopyButton>
              <Button onClick={() => { setCodes(null); onEnrolled?.(); }}>{t('identity.codesSaved')}</Button>
            </Group>
          </Stack>
        )}
        {!current && <Text role="status">{t('common.loading')}</Text>}
        {current && !codes && (
          <Text>{current.totp && current.passkeys === 0 ? t('identity.twoFactorOn')
            : current.passkeys > 0 ? t('identity.twoFactorOnPasskeys')
              : current.required ? t('identity.twoFactorRequired') : t('identity.twoFactorOff')}</Text>
        )}
        {current && !codes && (current.totp || current.passkeys > 0) && (
          <>
            <Text size="sm">{t('identity.recoveryCodesLeft', { count: current.recovery_codes_left })}</Text>
            <Group><Button variant="default" onClick={regenerate} loading={busy}>{t('identity.regenerateCodes')}</Button></Group>
          </>
        )}
        {current && !codes && (
          <Stack gap="xs" component="section" aria-labelledby="totp-title">
            <Title order={3} size="h4" id="totp-title">{t('identity.authenticatorApp')}</Title>
            {current.totp && (
              <>
                <Text size="sm">{t('identity.authenticatorAppOn')}</Text>
                {(!current.required || current.passkeys > 0) && (
                  <Group>
                    <Button color="red" variant="outline" onClick={remove}>{current.passkeys > 0 ? t('identity.removeApp') : t('identity.removeTwoFactor')}</Button>
                  </Group>
                )}
              </>
            )}
            {!current.totp && !enrolment && (
              <Group><Button onClick={() => void start()} loading={busy}>{t('identity.setUpApp')}</Button></Group>
            )}
            {!current.totp && enrolment && (
              <form onSubmit={confirm}>
                <Stack>
                  <List type="ordered" size="sm">
                    <List.Item>{t('identity.scanQr')}</List.Item>
                    <List.Item>{t('identity.enterCode')}</List.Item>
                  </List>
                  <Image src={enrolment.qr_code} alt={t('identity.qrAlt')} w={200} h={200} bg="white" />
                  <Text size="sm">{t('identity.typeSecret')} <Code data-totp-secret>{enrolment.secret}</Code></Text>
                  <TextInput label={t('identity.authenticatorCode')} autoComplete="one-time-code" inputMode="numeric" required
                    value={code} onChange={(e) => setCode(e.currentTarget.value)} />
                  <Group><Button type="submit" loading={busy}>{t('identity.turnOn')}</Button></Group>
                </Stack>
              </form>
            )}
          </Stack>
        )}
        {current && !codes && (
          <PasskeysPart available={current.passkeys_available} required={current.required} othersLeft={current.totp}
            onCodes={(fresh) => setCodes(fresh)} />
        )}
      </Stack>
    </Paper>
  );
}
