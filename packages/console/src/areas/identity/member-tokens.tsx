import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { ApplicationSelect } from '../../components/application-select';
import { confirmDelete } from '../../components/confirm-delete';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import { FormError } from '../../components/form-error';
import { Pager } from '../../components/pager';
import { SecretOnce } from '../../components/secret-once';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

type Token = AdminComponents['schemas']['AccessToken'];
const TOKENS = '/team_members/{id}/access_tokens';

/** A member's access tokens: list, create for an API application picked from the server (its secret shown once), revoke. */
export function MemberTokens({ memberId, manage }: { memberId: number; manage: boolean }) {
  const { t, formatDate } = useI18n();
  const queryClient = useQueryClient();
  const path = { id: memberId };
  const [page, setPage] = useState(1);
  const tokens = api.useQuery('get', TOKENS, { params: { path, query: { page: String(page) } } });
  const [creating, { open, close }] = useDisclosure(false);
  const [applicationId, setApplicationId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', TOKENS] });

  const create = async () => {
    setError(null);
    try {
      const { data } = await admin.POST(TOKENS, { params: { path }, body: { application_id: Number(applicationId) } });
      close();
      setSecret(data!.token ?? null);
      await refresh();
    } catch (caught) {
      setError(caught);
    }
  };
  const columns: Column<Token>[] = [
    { key: 'application', label: t('identity.application'), text: (token) => token.application_name, render: (token) => token.application_name },
    { key: 'created_at', label: t('identity.created'), width: 200, render: (token) => formatDate(token.created_at) },
    ...(manage ? [{
      key: 'actions', label: t('common.actions'), render: (token: Token) => (
        <Button size="compact-sm" color="red" variant="outline" onClick={() => confirmDelete(t, token.application_name, async () => {
          await admin.DELETE('/team_members/{id}/access_tokens/{token_id}', { params: { path: { id: memberId, token_id: token.id } } });
          notify(t('common.deleted'));
          await refresh();
        })}>{t('identity.revoke')}</Button>
      ),
    }] : []),
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">{t('identity.tokens')}</Title>
        {manage && <Button variant="outline" onClick={open}>{t('identity.newToken')}</Button>}
      </Group>
      {tokens.error ? <ErrorView error={tokens.error} /> : tokens.data && tokens.data.access_tokens.length > 0 && (
        <DataTable columns={columns} items={tokens.data.access_tokens} rowKey={(token) => token.id} striped={false} />
      )}
      {tokens.data?.access_tokens.length === 0 && <Text role="status">{t('common.noResults')}</Text>}
      <Pager meta={tokens.data?.meta} onPage={setPage} />
      <Modal opened={creating} onClose={close} title={t('identity.newToken')}>
        <Stack>
          <FormError error={error} />
          <ApplicationSelect label={t('identity.application')} required value={applicationId} onChange={setApplicationId} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>{t('common.cancel')}</Button>
            <Button onClick={() => void create()} disabled={!applicationId}>{t('common.create')}</Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title={t('identity.tokenCreated')}>
        {secret && <SecretOnce secret={secret} label={t('identity.tokenCreated')} warning={t('identity.secretOnce')} onClose={() => setSecret(null)} />}
      </Modal>
    </Stack>
  );
}
