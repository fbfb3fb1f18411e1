import { useState } from 'react';
import { Button, Drawer, List, NumberInput, Stack, Table, Text, TextInput } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { ListPage, type Column } from '../../components/list-page';
import { PER_PAGE } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import type { AuditSearch } from './audit-search';

type Entry = AdminComponents['schemas']['AuditLogEntry'];
const route = getRouteApi('/app/audit');

/** A datetime-local value as the ISO instant the API takes, and back. */
const toInstant = (local: string) => (local ? new Date(local).toISOString() : undefined);
const toLocal = (instant?: string) => {
  if (!instant) return '';
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? '' : new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** The audit log (GET /logs), newest first, filtered by member, resource and period; a row opens its detail. */
export function AuditLogPage() {
  const { t, formatDate } = useI18n();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/audit' });
  const { page, ...filters } = search;
  const list = api.useQuery('get', '/logs', { params: { query: { page: String(page ?? 1), per_page: String(PER_PAGE), ...filters } } });
  const [shown, setShown] = useState<Entry | null>(null);
  const filter = (next: Partial<AuditSearch>) => void navigate({ search: { ...search, ...next, page: undefined } });

  const columns: Column<Entry>[] = [
    { key: 'at', label: t('identity.at'), render: (entry) => <Button variant="subtle" size="compact-sm" onClick={() => setShown(entry)}>{formatDate(entry.at)}</Button> },
    { key: 'member', label: t('identity.member'), render: (entry) => entry.member_email ?? '—' },
    { key: 'operation', label: t('identity.operation'), render: (entry) => entry.operation },
    { key: 'resource', label: t('identity.resource'), render: (entry) => [entry.resource_type, entry.resource_id].filter(Boolean).join(' ') },
    { key: 'status', label: t('identity.status'), render: (entry) => entry.status_code ?? '—' },
  ];

  return (
    <>
      <ListPage
        title={t('identity.auditLog')}
        columns={columns}
        rowKey={(entry) => entry.id}
        items={list.data?.logs}
        meta={list.data?.meta}
        loading={list.isLoading}
        error={list.error}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
        searchable={false}
        filters={(
          <>
            <NumberInput label={t('identity.memberId')} w={140} min={1} allowDecimal={false} value={search.member_id ?? ''} onChange={(value) => filter({ member_id: typeof value === 'number' && value > 0 ? value : undefined })} />
            <TextInput key={`type-${search.resource_type}`} label={t('identity.resourceType')} w={180} defaultValue={search.resource_type ?? ''} onBlur={(event) => filter({ resource_type: event.currentTarget.value || undefined })} />
            <TextInput key={`id-${search.resource_id}`} label={t('identity.resourceId')} w={180} defaultValue={search.resource_id ?? ''} onBlur={(event) => filter({ resource_id: event.currentTarget.value || undefined })} />
            <TextInput key={`from-${search.from}`} type="datetime-local" label={t('identity.from')} defaultValue={toLocal(search.from)} onBlur={(event) => filter({ from: toInstant(event.currentTarget.value) })} />
            <TextInput key={`to-${search.to}`} type="datetime-local" label={t('identity.to')} defaultValue={toLocal(search.to)} onBlur={(event) => filter({ to: toInstant(event.currentTarget.value) })} />
          </>
        )}
      />
      <Drawer opened={shown !== null} onClose={() => setShown(null)} position="right" title={t('identity.auditEntry')}>
        {shown && <AuditEntryDetail entry={shown} />}
      </Drawer>
    </>
  );
}

function AuditEntryDetail({ entry }: { entry: Entry }) {
  const { t, formatDate } = useI18n();
  const rows: [string, string][] = [
    [t('identity.at'), formatDate(entry.at)],
    [t('identity.member'), entry.member_email ?? '—'],
    [t('identity.credential'), entry.credential ?? '—'],
    [t('identity.operation'), entry.operation],
    [t('identity.resource'), [entry.resource_type, entry.resource_id].filter(Boolean).join(' ') || '—'],
    [t('identity.address'), entry.address ?? '—'],
    [t('identity.status'), entry.status_code === null ? '—' : String(entry.status_code)],
  ];
  return (
    <Stack>
      <Table>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}><Table.Th scope="row">{label}</Table.Th><Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td></Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text fw={700}>{t('identity.changed')}</Text>
      {entry.changed.length > 0 ? <List>{entry.changed.map((name) => <List.Item key={name}>{name}</List.Item>)}</List> : <Text>—</Text>}
    </Stack>
  );
}
