import { Text } from '@mantine/core';
import { api } from '../../api/client';
import { RealmSelect } from '../../components/realm-select';
import { useI18n } from '../../i18n/i18n';

/** The realm picker of a realm-scoped list (its uid in the URL, shown with its name), and a hint while none is picked. */
export function RealmFilter({ realm, onChange }: { realm: string | undefined; onChange(realm: string | undefined): void }) {
  const { t } = useI18n();
  const current = api.useQuery('get', '/realms/{realm_uid}', { params: { path: { realm_uid: realm ?? '' } } }, { enabled: !!realm, retry: false });
  return (
    <>
      <RealmSelect label={t('originations.realm')} value={realm ?? null} onChange={(uid) => onChange(uid ?? undefined)} required w={320}
        selectedLabel={current.data ? `${current.data.name} (${current.data.uid})` : undefined} />
      {!realm && <Text role="status">{t('originations.chooseRealm')}</Text>}
    </>
  );
}
