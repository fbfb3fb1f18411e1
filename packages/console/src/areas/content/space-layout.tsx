import { Group, Stack, Text, Title } from '@mantine/core';
import { getRouteApi, Outlet } from '@tanstack/react-router';
import { api } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { ButtonLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';

const route = getRouteApi('/app/content/$spaceUid');

/** A content space: its name and locales, and tabs that are links to its types and its assets. */
export function SpaceLayout() {
  const { t } = useI18n();
  const { spaceUid } = route.useParams();
  const space = useSpace(spaceUid);
  if (space.error) return <ErrorView error={space.error} />;
  return (
    <Stack>
      {space.data ? (
        <>
          <Title order={1}>{space.data.name}</Title>
          <Text size="sm" c="dimmed">{space.data.uid} · {t('content.locales')}: {space.data.locales.join(', ')}</Text>
        </>
      ) : <Text role="status">{t('common.loading')}</Text>}
      <nav aria-label={t('content.spaceSections')}>
        <Group gap="xs">
          <ButtonLink to="/content/$spaceUid" params={{ spaceUid }} size="xs" variant="default" activeOptions={{ exact: true }} activeProps={{ variant: 'filled' }}>
            {t('content.types')}
          </ButtonLink>
          <ButtonLink to="/content/$spaceUid/assets" params={{ spaceUid }} size="xs" variant="default" activeProps={{ variant: 'filled' }}>
            {t('content.assets')}
          </ButtonLink>
        </Group>
      </nav>
      <Outlet />
    </Stack>
  );
}

/** The space of the current route, loaded once and shared (cached) by the screens under it. */
export function useSpace(spaceUid: string) {
  return api.useQuery('get', '/content/spaces/{space_uid}', { params: { path: { space_uid: spaceUid } } });
}
