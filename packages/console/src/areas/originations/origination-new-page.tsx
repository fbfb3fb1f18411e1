import { Stack, Text, Title } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin } from '../../api/client';
import { RealmSelect } from '../../components/realm-select';
import { useI18n } from '../../i18n/i18n';
import { OriginationForm } from './origination-form';
import { originationBody } from './origination-values';

const route = getRouteApi('/app/originations/new');

/** A new origination of the realm picked (in the URL): its name, deadline and steps. */
export function OriginationNewPage() {
  const { t } = useI18n();
  const { realm } = route.useSearch();
  const navigate = useNavigate({ from: '/originations/new' });
  return (
    <Stack>
      <Title order={1}>{t('originations.newOrigination')}</Title>
      <RealmSelect label={t('originations.realm')} value={realm ?? null} onChange={(uid) => void navigate({ search: { realm: uid ?? undefined } })} required w={320} />
      {realm ? (
        <OriginationForm key={realm} onSubmit={async (values) => {
          const { data } = await admin.POST('/customers/{realm_uid}/originations', { params: { path: { realm_uid: realm } }, body: originationBody(values) });
          await navigate({ to: '/originations/$realmUid/$originationId', params: { realmUid: realm, originationId: String(data!.id) } });
        }} />
      ) : <Text role="status">{t('originations.chooseRealm')}</Text>}
    </Stack>
  );
}
