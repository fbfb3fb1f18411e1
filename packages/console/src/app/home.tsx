import { SimpleGrid, Paper, Stack, Text, Title } from '@mantine/core';
import { AnchorLink } from '../components/links';
import { navGroups } from '../areas/nav';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import { useHomeCounts } from './home-counts';
import { NextSteps } from './home-steps';
import { Overview } from './home-overview';

/** The first screen after sign-in: the next steps of a new account, counts of what the member may read, and every screen it may open. */
export function Home() {
  const { t } = useI18n();
  const session = useSession();
  const counts = useHomeCounts();
  const name = session.state.status === 'signed-in' ? (session.state.member.name || session.state.member.email) : '';
  return (
    <Stack>
      <Title order={1}>{t('common.welcome', { name })}</Title>
      <NextSteps counts={counts} />
      <Overview counts={counts} />
      <Title order={2} size="h4">{t('home.allScreens')}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {navGroups.map((group) => {
          const items = group.items.filter((item) => !item.permission || session.can(item.permission));
          if (items.length === 0) return null;
          return (
            <Paper withBorder p="md" key={group.label}>
              <Title order={3} size="h4" mb="xs">{t(group.label)}</Title>
              <Stack gap={4}>
                {items.map((item) => <AnchorLink to={item.to} key={item.to}>{t(item.label)}</AnchorLink>)}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
      <Text size="sm" c="dimmed">{t('common.shortcutSpotlight')}: Ctrl/⌘ + K · {t('common.shortcutHelp')}: ?</Text>
    </Stack>
  );
}
