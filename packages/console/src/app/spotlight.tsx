import { useState } from 'react';
import { Spotlight, type SpotlightActionData } from '@mantine/spotlight';
import { useDebouncedValue } from '@mantine/hooks';
import { useNavigate } from '@tanstack/react-router';
import { navGroups } from '../areas/nav';
import { api } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';

/** Ctrl/Cmd+K: any screen, and realms found on the server by what is typed. */
export function AppSpotlight() {
  const { t } = useI18n();
  const { can } = useSession();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 300);
  const realms = api.useQuery('get', '/realms', { params: { query: { query: debounced, per_page: '5' } } }, { enabled: debounced.length > 0 && can('realms.read') });

  const screens: SpotlightActionData[] = navGroups.flatMap((group) => group.items
    .filter((item) => !item.permission || can(item.permission))
    .map((item) => ({ id: `screen:${item.to}`, label: t(item.label), description: t(group.label), onClick: () => navigate({ to: item.to }) })));
  const found: SpotlightActionData[] = (realms.data?.realms ?? []).map((realm) => ({
    id: `realm:${realm.uid}`, label: realm.name, description: realm.uid,
    onClick: () => navigate({ to: '/realms/$realmUid', params: { realmUid: realm.uid } }),
  }));

  return (
    <Spotlight
      actions={[{ group: t('common.screens'), actions: screens }, ...(found.length ? [{ group: t('realms.title'), actions: found }] : [])]}
      shortcut={['mod + K']}
      query={query}
      onQueryChange={setQuery}
      nothingFound={t('common.noResults')}
      highlightQuery
      searchProps={{ placeholder: t('common.spotlightPlaceholder'), 'aria-label': t('common.spotlightPlaceholder') }}
    />
  );
}
