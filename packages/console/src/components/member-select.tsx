import type { AdminComponents } from '@atrium/client';
import { api } from '../api/client';
import { ServerMultiSelect, ServerSelect, type Option, type ServerMultiSelectProps, type ServerSelectProps } from './server-select';

type Member = Pick<AdminComponents['schemas']['TeamMember'], 'id' | 'name' | 'email'>;
/** A team member as a picker shows it. */
export const memberOption = (member: Member): Option => ({ value: String(member.id), label: member.name ? `${member.name} <${member.email}>` : member.email });

function useMemberOptions(search: string): { options: Option[]; loading: boolean } {
  const members = api.useQuery('get', '/team_members', { params: { query: { per_page: '20', sort_by: 'email', order: 'asc', ...(search ? { query: search } : {}) } } });
  return { options: (members.data?.team_members ?? []).filter((member) => member.active).map(memberOption), loading: members.isLoading };
}

/** Picks an active team member by id, searching the server by email or name. */
export function MemberSelect(props: Omit<ServerSelectProps, 'useOptions'>) {
  return <ServerSelect {...props} useOptions={useMemberOptions} />;
}

/** Picks team members by id, searching the server; `known` names those chosen before. */
export function MemberMultiSelect(props: Omit<ServerMultiSelectProps, 'useOptions'>) {
  return <ServerMultiSelect {...props} useOptions={useMemberOptions} />;
}
