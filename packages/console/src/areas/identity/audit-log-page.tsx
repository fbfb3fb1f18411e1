import { useState } from 'react';
import { Button, CloseButton, Drawer, Group, List, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { ListPage, type Column } from '../../components/list-page';
import { PER_PAGE } from '../../components/list-search';
import { MemberSelect } from '../../components/member-select';
import { RealmSelect } from '../../components/realm-select';
import { useI18n } from '../../i18n/i18n';
import type { AuditSearch } from './audit-search';
import { auditOutcome, describeAuditEntry, resourceKinds } from './audit-words';

type Entry = AdminComponents['schemas']['AuditLogEntry'];
const route = getRouteApi('/app/audit');

/** A datetime-local value as the ISO instant the API takes, and back. */
const toInstant = (local: string) => (local ? new Date(local).toISOString() : undefined);
const toLocal = (instant?: string) => {
  if (!instant) return '';
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? '' : new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** The audit log (GET /logs) in words, newest first, filtered by member, realm, kind of resource and period; a row opens its detail. */
export function AuditLogPage() {
  const { t, formatDate } = useI18n();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/audit' });
  const { page, ...filters } = search;
  const list = api.useQuery('get', '/logs', { params: { query: { page: String(page ?? 1), per_page: String(PER_PAGE), ...filters } } });
  const [shown, setShown] = useState<Entry | null>(null);
  const filter = (next: Partial<AuditSearch>) => void navigate({ search: { ...search, ...next, page: undefined } });

  const first = list.data?.logs[0];

  const columns: Column<Entry>[] = [
    { key: 'at', label: t('identity.at'), width: 230, render: (entry) => <Button variant="subtle" size="compact-sm" onClick={() => setShown(entry)}>{formatDate(entry.at)}</Button> },
    { key: 'member', label: t('identity.member'), text: (entry) => entry.member_email ?? '—', render: (entry) => entry.member_email ?? '—' },
    { key: 'action', label: t('identity.action'), text: (entry) => describeAuditEntry(entry, t), render: (entry) => describeAuditEntry(entry, t) },
    { key: 'status', label: t('identity.status'), width: 150, render: (entry) => auditOutcome(entry.status_code, t) },
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
            <MemberSelect label={t('identity.member')} w={260} value={search.member_id ? String(search.member_id) : null}
              selectedLabel={first?.member_email ?? undefined} onChange={(id) => filter({ member_id: id ? Number(id) : undefined })} />
            <RealmSelect label={t('identity.contextRealm')} w={220} value={search.realm_uid ?? null}
              selectedLabel={first?.realm?.name ?? undefined} onChange={(uid) => filter({ realm_uid: uid ?? undefined })} />
            <Select label={t('audit.resourceKind')} w={200} clearable searchable data={resourceKinds(t)} placeholder={t('audit.anyResource')}
              value={search.resource_type ?? null} onChange={(type) => filter({ resource_type: type ?? undefined, resource_id: undefined })} />
            <TextInput key={`from-${search.from}`} type="datetime-local" label={t('identity.from')} defaultValue={toLocal(search.from)} onBlur={(event) => filter({ from: toInstant(event.currentTarget.value) })} />
            <TextInput key={`to-${search.to}`} type="datetime-local" label={t('identity.to')} defaultValue={toLocal(search.to)} onBlur={(event) => filter({ to: toInstant(event.currentTarget.value) })} />
          </>
        )}
      />
      {search.resource_id && (
        <Group gap="xs">
          <Text fw={700}>{t('identity.onlyResource', { resource: first?.resource_label ?? search.resource_id })}</Text>
          <CloseButton aria-label={t('identity.allResources')} onClick={() => filter({ resource_type: undefined, resource_id: undefined })} />
        </Group>
      )}
      <Drawer opened={shown !== null} onClose={() => setShown(null)} position="right" title={t('identity.auditEntry')}>
        {shown && <AuditEntryDetail entry={shown} onHistory={(entry) => {
          setShown(null);
          filter({ resource_type: entry.resource_type ?? undefined, resource_id: entry.resource_id ?? undefined });
        }} />}
      </Drawer>
    </>
  );
}

/** One entry: its sentence, then who, how and from where, and the API operation and status code for developers. */
function AuditEntryDetail({ entry, onHistory }: { entry: Entry; onHistory(entry: Entry): void }) {
  const { t, formatDate } = useI18n();
  const rows: [string, string][] = [
    [t('identity.action'), describeAuditEntry(entry, t)],
    [t('identity.at'), formatDate(entry.at)],
    [t('identity.member'), entry.member_email ?? '—'],
    [t('identity.credential'), entry.credential === null ? '—' : t(entry.credential === 'session' ? 'identity.credentialSession' : 'identity.credentialToken')],
    [t('identity.status'), auditOutcome(entry.status_code, t)],
    [t('identity.address'), entry.address ?? '—'],
    [t('audit.apiOperation'), entry.operation],
    [t('audit.statusCode'), entry.status_code === null ? '—' : String(entry.status_code)],
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
      {entry.resource_id && <Button variant="light" onClick={() => onHistory(entry)}>{t('identity.resourceHistory')}</Button>}
    </Stack>
  );
}
