import { useSession } from '../../session/session';

/**
 * Whether the member may change a form: an account form needs forms.manage from an account role, a realm's form from
 * an account role or a role of that realm. `undefined` asks whether the member may create some form.
 */
export function useMayManageForm(): (realmUid: string | null | undefined) => boolean {
  const { state, can } = useSession();
  const everywhere = state.status === 'signed-in' && state.permissions.everywhere.includes('forms.manage');
  return (realmUid) => everywhere || (realmUid === undefined ? can('forms.manage') : realmUid !== null && can('forms.manage', realmUid));
}
