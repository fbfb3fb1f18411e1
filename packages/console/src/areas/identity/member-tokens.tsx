import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Modal, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { admin, api } from '../../api/client';
import { confirmDelete } from '../../components/confirm-delete';
import { ErrorView } from '../../components/error-view';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';

/** A member's access tokens: list, create for an API application (its secret shown once), revoke. */
export function MemberTokens({ memberId, manage }: { memberId: number; manage: boolean }) {
  const { t, formatDate } = useI18n();
  const queryClient = useQueryClient();
  const path = { id: memberId };
  const tokens = api.useQuery('get', '/team_members/{id}/access_tokens', { params: { path, query: { per_page: '100' } } });
  const applications = api.useQuery('get', '/api_access/applications', { params: { query: { per_page: '100' } } });
  const [creating, { open, close }] = useDisclosure(false);
  const [applicationId, setApplicationId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const nameOf = (id: number) => applications.data?.applications.find((application) => application.id === id)?.name ?? String(id);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', '/team_members/{id}/access_tokens'] });

  const create = async () => {
    setError(null);
    try {
      const { data } = await admin.POST('/team_members/{id}/access_tokens', { params: { path }, body: { application_id: Number(applicationId) } });
      close();
      setSecret(data!.token ?? null);
      await refresh();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">{t('identity.tokens')}</Title>
        {manage && <Button variant="outline" onClick={open}>{t('identity.newToken')}</Button>}
      </Group>
      {tokens.error ? <ErrorView error={tokens.error} /> : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('identity.application')}</Table.Th>
              <Table.Th scope="col">{t('identity.created')}</Table.Th>
              {manage && <Table.Th scope="col">{t('common.actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.data?.access_tokens.map((token) => (
              <Table.Tr key={token.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{nameOf(token.application_id)}</Table.Td>
                <Table.Td>{formatDate(token.created_at)}</Table.Td>
                {manage && (
                  <Table.Td>
                    <Button size="compact-sm" color="red" variant="outline" onClick={() => confirmDelete(t, nameOf(token.application_id), async () => {
                      await admin.DELETE('/team_members/{id}/access_tokens/{token_id}', { params: { path: { id: memberId, token_id: token.id } } });
                      notifications.show({ message: t('common.deleted') });
                      await refresh();
                    })}>{t('identity.revoke')}</Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={creating} onClose={close} title={t('identity.newToken')}>
        <Stack>
          <FormError error={error} />
          <Select
            label={t('identity.application')}
            required
            data={(applications.data?.applications ?? []).map((application) => ({ value: String(application.id), label: application.name }))}
            value={applicationId}
            onChange={setApplicationId}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>{t('common.cancel')}</Button>
            <Button onClick={() => void create()} disabled={!applicationId}>{t('common.create')}</Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title={t('identity.tokenCreated')}>
        <Stack>
          <Alert color="orange.9" variant="outline">{t('identity.secretOnce')}</Alert>
          <Code block data-secret style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{secret}</Code>
          <Group justify="flex-end">
            <CopyButton value={secret ?? ''}>
              {({ copied, copy }) => <Button variant="outline" onClick={copy}>{copied ? t('identity.copied') : t('identity.copy')}</Button>}
            </CopyButton>
            <Button onClick={() => setSecret(null)}>{t('common.close')}</Button>
          </Group>
        </Stack>
      </Modal>
      {tokens.data?.access_tokens.length === 0 && <Text role="status">{t('common.noResults')}</Text>}
    </Stack>
  );
}
