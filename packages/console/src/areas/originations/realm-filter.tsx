import { Text } from '@mantine/core';
import { RealmSelect } from '../../components/realm-select';
import { useI18n } from '../../i18n/i18n';

/** The realm picker of a realm-scoped list (its uid in the URL), and a hint while none is picked. */
export function RealmFilter({ realm, onChange }: { realm: string | undefined; onChange(realm: string | undefined): void }) {
  const { t } = useI18n();
  return (
    <>
      <RealmSelect label={t('originations.realm')} value={realm ?? null} onChange={(uid) => onChange(uid ?? undefined)} required w={320} />
      {!realm && <Text role="status">{t('originations.chooseRealm')}</Text>}
    </>
  );
}
