import { Group, Stack, Text, Title } from '@mantine/core';
import { getRouteApi, Outlet } from '@tanstack/react-router';
import { api } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { ButtonLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';

const route = getRouteApi('/app/sites/$siteUid');

/** A site: its name, locales and address, and tabs that are links to its design, pages, menus and publishing. */
export function SiteLayout() {
  const { t } = useI18n();
  const { siteUid } = route.useParams();
  const site = useSite(siteUid);
  if (site.error) return <ErrorView error={site.error} />;
  const tab = { size: 'xs', variant: 'default', activeProps: { variant: 'filled' } } as const;
  return (
    <Stack>
      {site.data ? (
        <>
          <Title order={1}>{site.data.name}</Title>
          <Text size="sm" c="dimmed">{site.data.uid} · {t('sites.locales')}: {site.data.locales.join(', ')} · {site.data.url}</Text>
        </>
      ) : <Text role="status">{t('common.loading')}</Text>}
      <nav aria-label={t('sites.siteSections')}>
        <Group gap="xs">
          <ButtonLink to="/sites/$siteUid" params={{ siteUid }} {...tab} activeOptions={{ exact: true }}>{t('sites.design')}</ButtonLink>
          <ButtonLink to="/sites/$siteUid/pages" params={{ siteUid }} {...tab}>{t('sites.pages')}</ButtonLink>
          <ButtonLink to="/sites/$siteUid/menus" params={{ siteUid }} {...tab}>{t('sites.menus')}</ButtonLink>
          <ButtonLink to="/sites/$siteUid/publishing" params={{ siteUid }} {...tab}>{t('sites.publishing')}</ButtonLink>
        </Group>
      </nav>
      <Outlet />
    </Stack>
  );
}

/** The site of the current route, loaded once and shared (cached) by the screens under it. */
export function useSite(siteUid: string) {
  return api.useQuery('get', '/sites/{site_uid}', { params: { path: { site_uid: siteUid } } });
}
