import { api } from '../api/client';
import { ServerSelect, type Option, type ServerSelectProps } from './server-select';

function useApplicationOptions(search: string): { options: Option[]; loading: boolean } {
  const applications = api.useQuery('get', '/api_access/applications', { params: { query: { per_page: '20', sort_by: 'name', order: 'asc', ...(search ? { query: search } : {}) } } });
  return { options: (applications.data?.applications ?? []).map((application) => ({ value: String(application.id), label: application.name })), loading: applications.isLoading };
}

/** Picks an API access application by id, searching the server by name or Application ID. */
export function ApplicationSelect(props: Omit<ServerSelectProps, 'useOptions'>) {
  return <ServerSelect {...props} useOptions={useApplicationOptions} />;
}
