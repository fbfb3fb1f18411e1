import { api } from '../api/client';
import { ServerMultiSelect, ServerSelect, type Option } from './server-select';

function useRealmOptions(search: string): { options: Option[]; loading: boolean } {
  const realms = api.useQuery('get', '/realms', { params: { query: { per_page: '20', sort_by: 'name', order: 'asc', ...(search ? { query: search } : {}) } } });
  return { options: (realms.data?.realms ?? []).map((realm) => ({ value: realm.uid, label: `${realm.name} (${realm.uid})` })), loading: realms.isLoading };
}

/** Picks realms by uid, searching the server; `known`: the labels of those chosen before (their uids will do). */
export function RealmMultiSelect(props: { label: string; value: string[]; onChange(uids: string[]): void; known: Option[]; error?: string }) {
  return <ServerMultiSelect {...props} useOptions={useRealmOptions} />;
}

/** Picks a realm by uid, searching the server by uid or name. */
export function RealmSelect(props: { label: string; value: string | null; onChange(uid: string | null): void; required?: boolean; w?: number | string; selectedLabel?: string }) {
  return <ServerSelect {...props} useOptions={useRealmOptions} />;
}
