import { useState } from 'react';
import { Spotlight, type SpotlightActionData } from '@mantine/spotlight';
import { useDebouncedValue } from '@mantine/hooks';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { navGroups } from '../areas/nav';
import { api } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';

/** The realm of the current URL (/realms/{uid}/...), whose users the spotlight also searches. */
function useCurrentRealm(): string | null {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const match = /\/realms\/([^/]+)/.exec(pathname);
  return match ? decodeURIComponent(match[1]!) : null;
}

/**
 * Ctrl/Cmd+K: any screen, realms found on the server by what is typed and, on a realm's pages, that realm's users
 * (searched on the server by email, username or name; 5 at most, never the whole list).
 */
export function AppSpotlight() {
  const { t } = useI18n();
  const { can } = useSession();
  const navigate = useNavigate();
  const realmUid = useCurrentRealm();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), 300);
  const realms = api.useQuery('get', '/realms', { params: { query: { query: debounced, per_page: '5' } } }, { enabled: debounced.length > 0 && can('realms.read') });
  const users = api.useQuery('get', '/customers/{realm_uid}/users', { params: { path: { realm_uid: realmUid ?? '' }, query: { query: debounced, per_page: '5' } } },
    { enabled: debounced.length > 0 && !!realmUid && can('realm.users.read', realmUid) });

  const screens: SpotlightActionData[] = navGroups.flatMap((group) => group.items
    .filter((item) => !item.permission || can(item.permission))
    .map((item) => ({ id: `screen:${item.to}`, label: t(item.label), description: t(group.label), onClick: () => navigate({ to: item.to }) })));
  const found: SpotlightActionData[] = (realms.data?.realms ?? []).map((realm) => ({
    id: `realm:${realm.uid}`, label: realm.name, description: realm.uid,
    onClick: () => navigate({ to: '/realms/$realmUid', params: { realmUid: realm.uid } }),
  }));
  const foundUsers: SpotlightActionData[] = realmUid ? (users.data?.users ?? []).map((user) => ({
    id: `user:${user.id}`, label: user.name || user.email, description: user.email,
    onClick: () => navigate({ to: '/realms/$realmUid/users/$userId', params: { realmUid, userId: String(user.id) } }),
  })) : [];

  return (
    <Spotlight
      actions={[
        { group: t('common.screens'), actions: screens },
        ...(found.length ? [{ group: t('realms.title'), actions: found }] : []),
        ...(foundUsers.length ? [{ group: t('realms.spotlightUsers', { realm: realmUid! }), actions: foundUsers }] : []),
      ]}
      shortcut={['mod + K']}
      query={query}
      onQueryChange={setQuery}
      nothingFound={t('common.noResults')}
      highlightQuery
      searchProps={{ placeholder: t('common.spotlightPlaceholder'), 'aria-label': t('common.spotlightPlaceholder') }}
    />
  );
}
