import { api } from '../../api/client';
import { ServerSelect, type Option, type ServerSelectProps } from '../../components/server-select';

function useGroupOptions(realmUid: string, search: string): { options: Option[]; loading: boolean } {
  const groups = api.useQuery('get', '/customers/{realm_uid}/groups', { params: { path: { realm_uid: realmUid }, query: { per_page: '20', ...(search ? { query: search } : {}) } } });
  return { options: (groups.data?.groups ?? []).map((group) => ({ value: String(group.id), label: group.name })), loading: groups.isLoading };
}

/** Picks a reviewer group of the realm by id, searching the server by name. */
export function GroupSelect({ realmUid, ...props }: Omit<ServerSelectProps, 'useOptions'> & { realmUid: string }) {
  const useOptions = (search: string) => useGroupOptions(realmUid, search);
  return <ServerSelect {...props} useOptions={useOptions} />;
}
