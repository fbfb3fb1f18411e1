import { Button, Code, CopyButton, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { RotateKeyButton } from './rotate-key-button';

type Addresses = AdminComponents['schemas']['RealmAddresses'];

const ROWS: { label: MessageKey; of(addresses: Addresses): string[] }[] = [
  { label: 'realms.addressSignIn', of: (a) => [a.pages.sign_in] },
  { label: 'realms.addressSignUp', of: (a) => [a.pages.sign_up] },
  { label: 'realms.addressOneTimeCode', of: (a) => [a.pages.one_time_code] },
  { label: 'realms.addressPasswordReset', of: (a) => [a.pages.password_reset] },
  { label: 'realms.addressMetadata', of: (a) => [a.oauth.metadata] },
  { label: 'realms.addressIssuer', of: (a) => [a.oauth.issuer] },
  { label: 'realms.addressAuthorize', of: (a) => [a.oauth.authorization_endpoint] },
  { label: 'realms.addressToken', of: (a) => [a.oauth.token_endpoint] },
  { label: 'realms.addressRevoke', of: (a) => [a.oauth.revocation_endpoint] },
  { label: 'realms.addressDiscovery', of: (a) => (a.openid_connect ? [a.openid_connect.discovery] : []) },
  { label: 'realms.addressJwks', of: (a) => (a.openid_connect ? [a.openid_connect.jwks_uri] : []) },
  { label: 'realms.addressUserinfo', of: (a) => (a.openid_connect ? [a.openid_connect.userinfo_endpoint] : []) },
  { label: 'realms.addressIntrospect', of: (a) => (a.openid_connect ? [a.openid_connect.introspection_endpoint] : []) },
  { label: 'realms.addressEndSession', of: (a) => (a.openid_connect ? [a.openid_connect.end_session_endpoint] : []) },
  { label: 'realms.addressCallback', of: (a) => a.identity_provider_callbacks },
];

/** The realm's addresses an app or an identity provider is configured with, each with a copy button. */
export function AddressesPanel({ realmUid }: { realmUid: string }) {
  const { t } = useI18n();
  const addresses = api.useQuery('get', '/customers/{realm_uid}/addresses', { params: { path: { realm_uid: realmUid } } });
  if (!addresses.data) return null;
  const data = addresses.data;
  return (
    <Paper withBorder p="md" maw={960}>
      <Title order={2} size="h3">{t('realms.addresses')}</Title>
      <Text size="sm" c="dimmed" mb="sm">{t('realms.addressesHelp')}</Text>
      <Table>
        <Table.Tbody>
          {ROWS.filter((row) => row.of(data).length > 0).map((row) => (
            <Table.Tr key={row.label}>
              <Table.Th scope="row" w={220}>{t(row.label)}</Table.Th>
              <Table.Td>
                <Stack gap={4}>
                  {row.of(data).map((url) => (
                    <Group key={url} gap="xs" wrap="nowrap" justify="space-between">
                      <Code style={{ overflowWrap: 'anywhere' }}>{url}</Code>
                      <CopyButton value={url}>
                        {({ copied, copy }) => (
                          <Button size="compact-xs" variant="default" onClick={copy} aria-label={`${copied ? t('common.copied') : t('common.copy')}: ${t(row.label)}`}>
                            {copied ? t('common.copied') : t('common.copy')}
                          </Button>
                        )}
                      </CopyButton>
                    </Group>
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {data.openid_connect && <RotateKeyButton realmUid={realmUid} />}
    </Paper>
  );
}
