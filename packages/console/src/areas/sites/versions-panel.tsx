import { useState } from 'react';
import { Badge, Button, Code, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { messageOf } from '../../api/errors';
import { DataTable } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

const VERSIONS = '/sites/{site_uid}/versions';
type Change = AdminComponents['schemas']['SiteVersion']['changes'][number];
const KINDS: Record<Change['kind'], MessageKey> = { layout: 'sites.kindLayout', snippet: 'sites.kindSnippet', file: 'sites.kindFile', page: 'sites.kindPage', menu: 'sites.kindMenu' };
const CHANGES: Record<Change['change'], MessageKey> = { added: 'sites.changeAdded', changed: 'sites.changeChanged', removed: 'sites.changeRemoved' };
const show = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 2));

/** The site's versions, newest first: roll back to one (confirmed), and compare two. */
export function VersionsPanel({ siteUid, mayRollBack }: { siteUid: string; mayRollBack: boolean }) {
  const { t, formatDate } = useI18n();
  const queryClient = useQueryClient();
  const versions = api.useQuery('get', VERSIONS, { params: { path: { site_uid: siteUid }, query: { per_page: '100' } } });
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [compared, setCompared] = useState<{ from: number; to: number } | null>(null);
  const diff = api.useQuery('get', `${VERSIONS}/diff`, { params: { path: { site_uid: siteUid }, query: { from: compared?.from ?? 1, to: compared?.to ?? 1 } } }, { enabled: compared !== null });
  /** "Page 12 (changed)" in the member's language; the key is the item's name, page id or menu uid. */
  const describe = (change: Change) => t('sites.changeOf', { kind: t(KINDS[change.kind]), key: change.key, change: t(CHANGES[change.change]) });
  const noteOf = (version: { note: string; restored_from: number | null }) => (version.restored_from ? t('sites.restoredFrom', { number: version.restored_from }) : version.note);
  const numbers = (versions.data?.versions ?? []).map((version) => ({ value: String(version.number), label: t('sites.versionNumber', { number: version.number }) }));

  const rollBack = (number: number) => modals.openConfirmModal({
    title: t('sites.rollBackTitle', { number }),
    children: <Text size="sm">{t('sites.rollBackText', { number })}</Text>,
    labels: { confirm: t('sites.rollBack'), cancel: t('common.cancel') },
    confirmProps: { color: 'red' },
    onConfirm: async () => {
      try {
        await admin.POST(`${VERSIONS}/{number}/restore`, { params: { path: { site_uid: siteUid, number } } });
        notify(t('sites.rolledBack', { number }));
      } catch (error) {
        notify(messageOf(error, t), 'red');
      }
      await queryClient.invalidateQueries({ queryKey: ['get', VERSIONS] });
      await queryClient.invalidateQueries({ queryKey: ['get', '/sites/{site_uid}'] });
    },
  });

  return (
    <Stack>
      <Title order={2}>{t('sites.versions')}</Title>
      {versions.error ? <ErrorView error={versions.error} /> : (
        <DataTable
          items={versions.data?.versions ?? []} rowKey={(version) => version.number} busy={versions.isLoading} striped={false}
          columns={[
            { key: 'number', label: t('sites.version'), width: 150, render: (version) => (
              <Group gap={4} wrap="nowrap">{version.number}{version.current && <Badge color="teal.9">{t('sites.current')}</Badge>}</Group>
            ) },
            { key: 'note', label: t('sites.note'), text: (version) => noteOf(version), render: (version) => noteOf(version) },
            { key: 'changes', label: t('sites.changes'), text: (version) => version.changes.map(describe).join(', '), render: (version) => version.changes.map(describe).join(', ') },
            { key: 'by', label: t('sites.publishedBy'), text: (version) => `${version.published_by.name} · ${formatDate(version.created_at)}`, render: (version) => `${version.published_by.name} · ${formatDate(version.created_at)}` },
            { key: 'actions', label: t('common.actions'), width: 170, render: (version) => mayRollBack && !version.current && (
              <Button size="xs" variant="default" aria-label={t('sites.rollBackTo', { number: version.number })} onClick={() => rollBack(version.number)}>{t('sites.rollBack')}</Button>
            ) },
          ]}
        />
      )}
      {versions.data?.versions.length === 0 && <Text size="sm">{t('sites.noneYet')}</Text>}
      {numbers.length > 1 && (
        <Group align="flex-end">
          <Select label={t('sites.diffFrom')} data={numbers} value={from} onChange={setFrom} w={180} />
          <Select label={t('sites.diffTo')} data={numbers} value={to} onChange={setTo} w={180} />
          <Button variant="default" disabled={!from || !to} onClick={() => setCompared({ from: Number(from), to: Number(to) })}>{t('sites.compare')}</Button>
        </Group>
      )}
      {compared && diff.error && <ErrorView error={diff.error} />}
      {compared && diff.data && (
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label={t('sites.diffCaption', { from: diff.data.from, to: diff.data.to })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('sites.item')}</Table.Th><Table.Th scope="col">{t('sites.before')}</Table.Th><Table.Th scope="col">{t('sites.after')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {diff.data.changes.map((change) => (
                <Table.Tr key={`${change.kind}:${change.key}`}>
                  <Table.Td>{describe(change)}</Table.Td>
                  <Table.Td><Code block>{show(change.before)}</Code></Table.Td>
                  <Table.Td><Code block>{show(change.after)}</Code></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {compared && diff.data?.changes.length === 0 && <Text size="sm">{t('sites.noDifference')}</Text>}
    </Stack>
  );
}
