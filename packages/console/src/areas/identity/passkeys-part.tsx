import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { fieldErrorsOf, messageOf } from '../../api/errors';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

type Passkey = AdminComponents['schemas']['Passkey'];

/**
 * The member's passkeys in the two-factor section: list, add one with a name (the browser makes it, through
 * `@simplewebauthn/browser`, loaded only here), remove. `available`: the base address is a host name; else says why not.
 * `onCodes`: the first second factor came with recovery codes, to be shown once.
 */
export function PasskeysPart({ available, required, othersLeft, onCodes }: {
  available: boolean; required: boolean; othersLeft: boolean; onCodes(codes: string[]): void;
}) {
  const { t, formatDate } = useI18n();
  const queryClient = useQueryClient();
  const list = api.useQuery('get', '/two_factor/passkeys', { params: { query: { per_page: '100' } } });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => Promise.all([
    queryClient.invalidateQueries({ queryKey: ['get', '/two_factor'] }),
    queryClient.invalidateQueries({ queryKey: ['get', '/two_factor/passkeys'] }),
  ]);

  const add = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    void (async () => {
      try {
        const { data: options } = await admin.POST('/two_factor/passkeys/options');
        const { startRegistration } = await import('@simplewebauthn/browser');
        let response;
        try {
          response = await startRegistration({ optionsJSON: options as never });
        } catch {
          setError(t('identity.passkeyCancelled'));
          return;
        }
        const { data } = await admin.POST('/two_factor/passkeys', { body: { name, response: response as never } });
        setName('');
        notify(t('identity.passkeyAdded'));
        if (data?.recovery_codes) onCodes(data.recovery_codes);
        await refresh();
      } catch (caught) {
        setError(fieldErrorsOf(caught).name ? `${t('identity.passkeyName')}: ${fieldErrorsOf(caught).name}` : messageOf(caught, t));
      } finally {
        setBusy(false);
      }
    })();
  };

  const remove = (passkey: Passkey) => modals.openConfirmModal({
    title: t('identity.removePasskeyTitle'),
    children: t('identity.removePasskeyConfirm', { name: passkey.name }),
    labels: { confirm: t('identity.removePasskey', { name: passkey.name }), cancel: t('common.cancel') },
    confirmProps: { color: 'red' },
    onConfirm: () => void (async () => {
      setError(null);
      try {
        await admin.DELETE('/two_factor/passkeys/{id}', { params: { path: { id: passkey.id } } });
        notify(t('identity.passkeyRemoved'));
        await refresh();
      } catch (caught) {
        setError(messageOf(caught, t));
      }
    })(),
  });

  const passkeys = list.data?.passkeys ?? [];
  return (
    <Stack gap="xs" component="section" aria-labelledby="passkeys-title">
      <Title order={3} size="h4" id="passkeys-title">{t('identity.passkeys')}</Title>
      <Text size="sm">{t('identity.passkeysHint')}</Text>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      {!available && <Alert color="yellow" role="status" data-passkeys-unavailable>{t('identity.passkeysUnavailable')}</Alert>}
      {list.data && passkeys.length === 0 && <Text size="sm">{t('identity.noPasskeys')}</Text>}
      {passkeys.length > 0 && (
        <List listStyleType="none" spacing="xs" data-passkeys>
          {passkeys.map((passkey) => (
            <List.Item key={passkey.id}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <div style={{ minWidth: 0 }}>
                  <Text fw={500} truncate="end" title={passkey.name}>{passkey.name}</Text>
                  <Text size="xs">
                    {t('identity.passkeyDetails', {
                      created: formatDate(passkey.created_at),
                      used: passkey.last_used_at ? t('identity.passkeyLastUsed', { date: formatDate(passkey.last_used_at) }) : t('identity.passkeyNeverUsed'),
                    })}
                  </Text>
                </div>
                {(!required || othersLeft || passkeys.length > 1) && (
                  <Button size="compact-sm" color="red" variant="outline" onClick={() => remove(passkey)}
                    aria-label={t('identity.removePasskey', { name: passkey.name })}>{t('identity.removeShort')}</Button>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      {available && (
        <form onSubmit={add}>
          <Group align="flex-end">
            <TextInput label={t('identity.passkeyName')} description={t('identity.passkeyNameHint')} required maxLength={100}
              value={name} onChange={(e) => setName(e.currentTarget.value)} style={{ flex: 1 }} />
            <Button type="submit" loading={busy}>{t('identity.addPasskey')}</Button>
          </Group>
        </form>
      )}
    </Stack>
  );
}
