import { useQueries } from '@tanstack/react-query';
import type { Meta } from '@atrium/client';
import { api } from '../api/client';
import { useSession } from '../session/session';

/** How many realms the home screen lists with their users and OAuth clients: the most recently changed. */
const LATEST_REALMS = 5;

/** A list's total (the segment and campaign lists answer `goal` instead only to the legacy naming header, never sent here). */
const total = (data: { meta: Meta } | object | undefined) => (data && 'meta' in data ? data.meta.total_entries : undefined);

/** Counted again each time the home screen opens: a record created a moment ago elsewhere counts at once. */
const FRESH = { refetchOnMount: 'always' } as const;

export interface RealmCounts { uid: string; name: string; users?: number; clients?: number }

/**
 * What the home screen counts, each read from its list's `meta.total_entries` (one item per request) and asked
 * only with the permission to read it: undefined while loading, on failure or without the permission.
 */
export function useHomeCounts() {
  const { can } = useSession();
  const one = { params: { query: { per_page: '1' } } };
  const realms = api.useQuery('get', '/realms', { params: { query: { per_page: String(LATEST_REALMS) } } }, { ...FRESH, enabled: can('realms.read') });
  const segments = api.useQuery('get', '/segments', one, { ...FRESH, enabled: can('segments.read') });
  const campaigns = api.useQuery('get', '/messaging/campaigns', one, { ...FRESH, enabled: can('messaging.read') });
  const delivered = api.useQuery('get', '/messaging/campaigns', { params: { query: { per_page: '1', filtered: 'true' } } }, { ...FRESH, enabled: can('messaging.read') });
  const spaces = api.useQuery('get', '/content/spaces', one, { ...FRESH, enabled: can('content.read') });
  const sites = api.useQuery('get', '/sites', one, { ...FRESH, enabled: can('site.read') });
  const forms = api.useQuery('get', '/forms', one, { ...FRESH, enabled: can('forms.read') });

  const latest = realms.data?.realms ?? [];
  const users = useQueries({
    queries: latest.map((realm) => ({
      ...api.queryOptions('get', '/customers/{realm_uid}/users', { params: { path: { realm_uid: realm.uid }, query: { per_page: '1' } } }),
      ...FRESH, enabled: can('realm.users.read', realm.uid),
    })),
  });
  const clients = useQueries({
    queries: latest.map((realm) => ({
      ...api.queryOptions('get', '/customers/{realm_uid}/oauth_clients', { params: { path: { realm_uid: realm.uid }, query: { per_page: '1' } } }), ...FRESH,
    })),
  });

  return {
    realms: total(realms.data),
    segments: total(segments.data),
    campaigns: total(campaigns.data),
    delivered: total(delivered.data),
    spaces: total(spaces.data),
    sites: total(sites.data),
    forms: total(forms.data),
    latestRealms: latest.map((realm, index): RealmCounts => ({
      uid: realm.uid, name: realm.name, users: total(users[index]?.data), clients: total(clients[index]?.data),
    })),
  };
}
