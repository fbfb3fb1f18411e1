import { ActionIcon, Button, Fieldset, Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { api } from '../../api/client';
import { RealmSelect } from '../../components/realm-select';
import { ServerSelect, type Option } from '../../components/server-select';
import { useI18n, type Translate } from '../../i18n/i18n';

export interface RoleRef { key: string; target: string | null }

function useSpaceOptions(search: string): { options: Option[]; loading: boolean } {
  const spaces = api.useQuery('get', '/content/spaces', { params: { query: { per_page: '20', sort_by: 'name', order: 'asc', ...(search ? { query: search } : {}) } } });
  return { options: (spaces.data?.spaces ?? []).map((space) => ({ value: space.uid!, label: `${space.name} (${space.uid})` })), loading: spaces.isLoading };
}

function useSiteOptions(search: string): { options: Option[]; loading: boolean } {
  const sites = api.useQuery('get', '/sites', { params: { query: { per_page: '20', sort_by: 'name', order: 'asc', ...(search ? { query: search } : {}) } } });
  return { options: (sites.data?.sites ?? []).map((site) => ({ value: site.uid, label: `${site.name} (${site.uid})` })), loading: sites.isLoading };
}

const contextLabel = (t: Translate, context: string) =>
  context === 'realm' ? t('identity.contextRealm') : context === 'space' ? t('identity.contextSpace') : context === 'site' ? t('identity.contextSite') : context;

/** The target of a realm, space or site role, searched on the server as the member types; a site role may reach every site. */
function TargetSelect({ context, value, onChange }: { context: string | undefined; value: string | null; onChange(target: string | null): void }) {
  const { t } = useI18n();
  if (context === 'realm') return <RealmSelect label={t('identity.contextRealm')} value={value} onChange={onChange} required w="100%" />;
  if (context === 'space') return <ServerSelect label={t('identity.contextSpace')} value={value} onChange={onChange} useOptions={useSpaceOptions} required />;
  if (context === 'site') return <ServerSelect label={t('identity.contextSite')} placeholder={t('identity.everySite')} value={value} onChange={onChange} useOptions={useSiteOptions} />;
  return null;
}

/**
 * A member's roles: account roles (everywhere) in one list, then one row per realm, space or site role
 * with its target. The value is the API's `[{key, target}]`; a row whose role is not chosen yet has key ''.
 */
export function RoleAssignments({ value, onChange }: { value: RoleRef[]; onChange(roles: RoleRef[]): void }) {
  const { t } = useI18n();
  const roles = api.useQuery('get', '/roles', { params: { query: { per_page: '100' } } });
  const all = roles.data?.roles ?? [];
  const contextOf = new Map(all.map((role) => [role.key, role.context]));
  const isAccount = (ref: RoleRef) => contextOf.get(ref.key) === 'account';
  const account = value.filter(isAccount);
  const rows = value.filter((ref) => !isAccount(ref));
  const setRows = (next: RoleRef[]) => onChange([...account, ...next]);
  const targeted = all.filter((role) => role.context !== 'account')
    .map((role) => ({ value: role.key, label: `${role.name} (${contextLabel(t, role.context)})` }));

  if (roles.isLoading) return <Text role="status">{t('common.loading')}</Text>;
  return (
    <Stack>
      <MultiSelect
        label={t('identity.roles')}
        description={t('identity.accountRolesHint')}
        data={all.filter((role) => role.context === 'account').map((role) => ({ value: role.key, label: role.name }))}
        searchable
        value={account.map((ref) => ref.key)}
        onChange={(keys) => onChange([...keys.map((key) => ({ key, target: null })), ...rows])}
      />
      <Fieldset legend={t('identity.targetedRoles')} variant="unstyled">
        <Stack gap="xs">
          {rows.map((row, i) => (
            <Group key={i} align="flex-end" wrap="nowrap">
              <Select
                label={t('identity.role')} data={targeted} value={row.key || null} searchable allowDeselect={false} w={220} required
                onChange={(key) => setRows(rows.map((other, j) => (j === i ? { key: key ?? '', target: contextOf.get(key ?? '') === contextOf.get(row.key) ? row.target : null } : other)))}
              />
              <div style={{ flex: 1 }}>
                <TargetSelect context={contextOf.get(row.key)} value={row.target}
                  onChange={(target) => setRows(rows.map((other, j) => (j === i ? { ...other, target } : other)))} />
              </div>
              <ActionIcon variant="default" size="lg" aria-label={t('identity.removeRole')} onClick={() => setRows(rows.filter((_, j) => j !== i))}>×</ActionIcon>
            </Group>
          ))}
          <Group>
            <Button variant="default" size="xs" onClick={() => setRows([...rows, { key: '', target: null }])}>{t('identity.addTargetedRole')}</Button>
          </Group>
        </Stack>
      </Fieldset>
    </Stack>
  );
}

/** The roles to send: rows whose role was not chosen are left out. */
export const chosenRoles = (roles: RoleRef[]) => roles.filter((ref) => ref.key);
