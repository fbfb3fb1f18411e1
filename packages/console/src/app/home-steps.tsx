import { List, Paper, Title } from '@mantine/core';
import { AnchorLink } from '../components/links';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import type { useHomeCounts } from './home-counts';

/**
 * The next steps of a new account: each shown while its count is 0 and only to a member who may take it
 * (the same permission as the create button of its screen). Nothing is shown once every step is done.
 */
export function NextSteps({ counts }: { counts: ReturnType<typeof useHomeCounts> }) {
  const { t } = useI18n();
  const { state, can } = useSession();
  const everywhere = (permission: 'site.write' | 'forms.manage') => state.status === 'signed-in' && state.permissions.everywhere.includes(permission);
  const first = counts.latestRealms[0];
  const steps = [
    counts.realms === 0 && can('realms.manage') && <List.Item key="realm"><AnchorLink to="/realms">{t('home.stepRealm')}</AnchorLink></List.Item>,
    first && first.clients === 0 && can('realms.manage', first.uid) && (
      <List.Item key="client"><AnchorLink to="/realms/$realmUid/clients" params={{ realmUid: first.uid }}>{t('home.stepOAuthClient', { realm: first.name })}</AnchorLink></List.Item>
    ),
    first && counts.segments === 0 && can('segments.manage', first.uid) && (
      <List.Item key="segment"><AnchorLink to="/segments/new" search={{ realm: first.uid }}>{t('home.stepSegment', { realm: first.name })}</AnchorLink></List.Item>
    ),
    counts.spaces === 0 && can('content.manage') && <List.Item key="space"><AnchorLink to="/content">{t('home.stepSpace')}</AnchorLink></List.Item>,
    counts.sites === 0 && everywhere('site.write') && <List.Item key="site"><AnchorLink to="/sites">{t('home.stepSite')}</AnchorLink></List.Item>,
    counts.forms === 0 && can('forms.manage') && <List.Item key="form"><AnchorLink to="/forms">{t('home.stepForm')}</AnchorLink></List.Item>,
  ].filter(Boolean);
  if (steps.length === 0) return null;
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="xs">{t('home.nextSteps')}</Title>
      <List spacing={4}>{steps}</List>
    </Paper>
  );
}
