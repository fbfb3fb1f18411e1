import { api } from '../api/client';
import { ServerSelect, type Option, type ServerSelectProps } from './server-select';

function useUserOptions(realmUid: string, search: string): { options: Option[]; loading: boolean } {
  const users = api.useQuery('get', '/customers/{realm_uid}/users', {
    params: { path: { realm_uid: realmUid }, query: { per_page: '20', sort_by: 'email', order: 'asc', ...(search ? { query: search } : {}) } },
  });
  return { options: (users.data?.users ?? []).map((user) => ({ value: String(user.id), label: user.name ? `${user.name} <${user.email}>` : user.email })), loading: users.isLoading };
}

/** Picks a user of the realm by id, searching the server by email or name. */
export function UserSelect({ realmUid, ...props }: Omit<ServerSelectProps, 'useOptions'> & { realmUid: string }) {
  const useOptions = (search: string) => useUserOptions(realmUid, search);
  return <ServerSelect {...props} useOptions={useOptions} />;
}
