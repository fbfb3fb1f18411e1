import type { ReactNode } from 'react';
import { Paper, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { AnchorLink } from '../components/links';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import type { RealmCounts, useHomeCounts } from './home-counts';

/** One count: its name (a link to its list) and its number, once known. */
function Count({ label, value }: { label: ReactNode; value: number | undefined }) {
  const { formatNumber } = useI18n();
  if (value === undefined) return null;
  return (
    <Paper withBorder p="sm">
      <Text component="dt" size="sm">{label}</Text>
      <Text component="dd" fz="xl" fw={700} m={0}>{formatNumber(value)}</Text>
    </Paper>
  );
}

/** The counts of what the member may read, then the latest realms with their users and OAuth clients. */
export function Overview({ counts }: { counts: ReturnType<typeof useHomeCounts> }) {
  const { t } = useI18n();
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="xs">{t('home.overview')}</Title>
      <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} m={0}>
        <Count label={<AnchorLink to="/realms">{t('home.realms')}</AnchorLink>} value={counts.realms} />
        <Count label={<AnchorLink to="/segments">{t('home.segments')}</AnchorLink>} value={counts.segments} />
        <Count label={<AnchorLink to="/campaigns">{t('home.campaigns')}</AnchorLink>} value={counts.campaigns} />
        <Count label={t('home.campaignsDelivered')} value={counts.delivered} />
        <Count label={<AnchorLink to="/content">{t('home.spaces')}</AnchorLink>} value={counts.spaces} />
        <Count label={<AnchorLink to="/sites">{t('home.sites')}</AnchorLink>} value={counts.sites} />
        <Count label={<AnchorLink to="/forms">{t('home.forms')}</AnchorLink>} value={counts.forms} />
      </SimpleGrid>
      {counts.latestRealms.length > 0 && <LatestRealms realms={counts.latestRealms} />}
    </Paper>
  );
}

function LatestRealms({ realms }: { realms: RealmCounts[] }) {
  const { t, formatNumber } = useI18n();
  const { can } = useSession();
  const shown = (value: number | undefined, readable: boolean) => (!readable ? t('home.notReadable') : value === undefined ? '…' : formatNumber(value));
  return (
    <Table mt="md" layout="fixed">
      <Table.Caption>{t('home.latestRealms')}</Table.Caption>
      <Table.Thead>
        <Table.Tr><Table.Th scope="col">{t('home.realm')}</Table.Th><Table.Th scope="col">{t('home.users')}</Table.Th><Table.Th scope="col">{t('home.oauthClients')}</Table.Th></Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {realms.map((realm) => (
          <Table.Tr key={realm.uid}>
            <Table.Th scope="row" fw={400}><AnchorLink to="/realms/$realmUid" params={{ realmUid: realm.uid }} style={{ overflowWrap: 'anywhere' }}>{realm.name}</AnchorLink></Table.Th>
            <Table.Td>{shown(realm.users, can('realm.users.read', realm.uid))}</Table.Td>
            <Table.Td>{shown(realm.clients, true)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
