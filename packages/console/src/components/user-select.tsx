import { api } from '../api/client';
import { ServerSelect, type Option } from './server-select';

/** Picks a user of one realm by id, searching the server by email, username or name. */
export function UserSelect({ realmUid, ...props }: { realmUid: string; label: string; value: string | null; onChange(id: string | null): void; w?: number | string }) {
  const useUserOptions = (search: string): { options: Option[]; loading: boolean } => {
    const users = api.useQuery('get', '/customers/{realm_uid}/users', {
      params: { path: { realm_uid: realmUid }, query: { per_page: '20', ...(search ? { query: search } : {}) } },
    });
    return { options: (users.data?.users ?? []).map((user) => ({ value: String(user.id), label: user.email })), loading: users.isLoading };
  };
  return <ServerSelect {...props} useOptions={useUserOptions} />;
}
