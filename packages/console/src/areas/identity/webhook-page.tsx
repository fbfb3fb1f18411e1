import { useState } from 'react';
import { Alert, Button, Drawer, Group, Modal, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { messageOf } from '../../api/errors';
import { confirmDelete } from '../../components/confirm-delete';
import { ErrorView } from '../../components/error-view';
import { ListPage, type Column } from '../../components/list-page';
import { SecretOnce } from '../../components/secret-once';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { webhookBody, WebhookForm } from './webhook-form';
import { attemptOutcomeWord, DELIVERY_STATUSES, deliveryStatusWord } from './webhook-words';
import { notify } from '../../components/notify';

type Delivery = AdminComponents['schemas']['WebhookDelivery'];
const route = getRouteApi('/app/webhooks/$webhookId');

/** A webhook endpoint: edit, rotate its secret, delete; its deliveries (status filter in the URL), their attempts and a retry. */
export function WebhookPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { webhookId } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/webhooks/$webhookId' });
  const queryClient = useQueryClient();
  const id = Number(webhookId);
  const path = { path: { id } };
  const hook = api.useQuery('get', '/webhooks/{id}', { params: path });
  const deliveries = api.useQuery('get', '/webhooks/{id}/deliveries', {
    params: { ...path, query: { page: String(search.page ?? 1), per_page: '20', ...(search.status ? { status: search.status } : {}) } },
  });
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<Delivery | null>(null);
  const [retryError, setRetryError] = useState<unknown>(null);

  if (hook.error) return <ErrorView error={hook.error} />;
  if (!hook.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = hook.data;
  const manage = can('webhooks.manage');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', '/webhooks/{id}/deliveries'] });

  const columns: Column<Delivery>[] = [
    { key: 'event_type', label: t('identity.eventType'), render: (d) => <Button variant="subtle" size="compact-sm" onClick={() => { setRetryError(null); setOpen(d); }}>{d.event_type}</Button> },
    { key: 'status', label: t('identity.status'), width: 140, render: (d) => deliveryStatusWord(d.status, t) },
    { key: 'attempts_count', label: t('identity.attempts'), render: (d) => d.attempts_count },
    { key: 'last_status_code', label: t('identity.lastCode'), render: (d) => d.last_status_code ?? '—' },
    { key: 'next_attempt_at', label: t('identity.nextAttempt'), render: (d) => formatDate(d.next_attempt_at) },
  ];

  return (
    <Stack>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={1} style={{ minWidth: 0 }}>{current.url}</Title>
        {manage && (
          <Group wrap="nowrap">
            <Button variant="default" disabled={!current.active} onClick={async () => {
              await admin.POST('/webhooks/{id}/test', { params: path });
              notify(t('identity.testQueued'));
              await refresh();
            }}>{t('identity.sendTest')}</Button>
            <Button variant="default" onClick={async () => {
              const { data } = await admin.POST('/webhooks/{id}/rotate_secret', { params: path });
              setSecret(data!.secret);
            }}>{t('identity.rotateSecret')}</Button>
            <Button color="red" variant="outline" onClick={() => confirmDelete(t, current.url, async () => {
              await admin.DELETE('/webhooks/{id}', { params: path });
              notify(t('common.deleted'));
              await queryClient.invalidateQueries({ queryKey: ['get', '/webhooks'] });
              await navigate({ to: '/webhooks' });
            })}>{t('common.delete')}</Button>
          </Group>
        )}
      </Group>
      {current.disabled_reason && <Alert color="yellow">{t('identity.disabledReason', { reason: current.disabled_reason })}</Alert>}
      {manage && (
        <Paper withBorder p="md" maw={640}>
          <WebhookForm key={current.updated_at} item={current} onSubmit={async (values) => {
            await admin.PUT('/webhooks/{id}', { params: path, body: webhookBody(values) });
            notify(t('common.saved'));
            await queryClient.invalidateQueries({ queryKey: ['get', '/webhooks/{id}'] });
          }} />
        </Paper>
      )}
      <ListPage
        title={t('identity.deliveries')} columns={columns} rowKey={(d) => d.id} searchable={false}
        items={deliveries.data?.deliveries} meta={deliveries.data?.meta} loading={deliveries.isLoading} error={deliveries.error}
        search={search} onSearch={(next) => void navigate({ search: { ...next, status: search.status } })}
        filters={(
          <Select label={t('identity.status')} clearable placeholder={t('identity.anyStatus')} data={DELIVERY_STATUSES.map((status) => ({ value: status, label: deliveryStatusWord(status, t) }))} value={search.status ?? null}
            onChange={(status) => void navigate({ search: { status: status ?? undefined } })} w={200} />
        )}
      />
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title={t('identity.rotateSecret')}>
        {secret && <SecretOnce secret={secret} label={t('identity.webhookSecret')} warning={t('identity.webhookSecretOnce')} onClose={() => setSecret(null)} />}
      </Modal>
      <Drawer opened={open !== null} onClose={() => setOpen(null)} position="right" size="lg" title={t('identity.delivery')}>
        {open && (
          <Stack>
            <Text>{open.event_type} · {deliveryStatusWord(open.status, t)}</Text>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('identity.at')}</Table.Th>
                  <Table.Th scope="col">{t('identity.outcome')}</Table.Th>
                  <Table.Th scope="col">{t('identity.code')}</Table.Th>
                  <Table.Th scope="col">{t('identity.duration')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {open.attempts.map((attempt) => (
                  <Table.Tr key={attempt.attempted_at}>
                    <Table.Td>{formatDate(attempt.attempted_at)}</Table.Td>
                    <Table.Td>{attemptOutcomeWord(attempt.outcome, t)}{attempt.error ? `: ${attempt.error}` : ''}</Table.Td>
                    <Table.Td>{attempt.status_code ?? '—'}</Table.Td>
                    <Table.Td>{attempt.duration_ms}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text size="sm">{t('identity.nextAttempt')}: {formatDate(open.next_attempt_at)}</Text>
            {retryError !== null && <Alert color="red" role="alert">{messageOf(retryError, t)}</Alert>}
            {manage && (
              <Button onClick={async () => {
                try {
                  await admin.POST('/webhooks/deliveries/{id}/retry', { params: { path: { id: open.id } } });
                  notify(t('identity.retried'));
                  setOpen(null);
                  await refresh();
                } catch (error) {
                  setRetryError(error);
                }
              }}>{t('identity.retry')}</Button>
            )}
          </Stack>
        )}
      </Drawer>
    </Stack>
  );
}
