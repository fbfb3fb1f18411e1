import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { confirmDelete } from '../../components/confirm-delete';
import { ErrorView } from '../../components/error-view';
import { ButtonLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { FieldsTable } from './fields-table';
import { useSpace } from './space-layout';
import { TypeForm } from './type-form';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/content/$spaceUid/types/$typeUid');

/** A content type: its fields in the field editor, and delete (with all its entries). */
export function TypePage() {
  const { t } = useI18n();
  const { can } = useSession();
  const { spaceUid, typeUid } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const path = { space_uid: spaceUid, type_uid: typeUid };
  const type = api.useQuery('get', '/content/spaces/{space_uid}/types/{type_uid}', { params: { path } });
  const space = useSpace(spaceUid);
  if (type.error) return <ErrorView error={type.error} />;
  if (!type.data || !space.data) return <Text role="status">{t('common.loading')}</Text>;
  const current = type.data;
  const manage = can('content.manage', spaceUid);
  const locale = space.data.default_locale;

  return (
    <Stack>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={2} style={{ minWidth: 0 }}>{current.name}</Title>
        <Group wrap="nowrap">
          <ButtonLink to="/content/$spaceUid/types/$typeUid/entries" params={{ spaceUid, typeUid }} variant="default">{t('content.entries')}</ButtonLink>
          {manage && (
            <Button color="red" variant="outline" onClick={() => confirmDelete(t, current.name, async () => {
              await admin.DELETE('/content/spaces/{space_uid}/types/{type_uid}', { params: { path } });
              notify(t('common.deleted'));
              await queryClient.invalidateQueries({ queryKey: ['get', '/content/spaces/{space_uid}/types'] });
              await navigate({ to: '/content/$spaceUid', params: { spaceUid } });
            })}>{t('common.delete')}</Button>
          )}
        </Group>
      </Group>
      <IndexProgress path={path} />
      {!manage && <FieldsTable fields={current.fields} defaultLocale={locale} />}
      {manage && (
        <Paper withBorder p="md">
          <TypeForm key={current.updated_at} item={current} locale={locale} onSubmit={async (body) => {
            const { data } = await admin.PUT('/content/spaces/{space_uid}/types/{type_uid}', { params: { path }, body });
            notify(t('common.saved'));
            await queryClient.invalidateQueries({ queryKey: ['get', '/content/spaces/{space_uid}/types'] });
            if (data!.uid !== typeUid) await navigate({ to: '/content/$spaceUid/types/$typeUid', params: { spaceUid, typeUid: data!.uid } });
            else await queryClient.invalidateQueries({ queryKey: ['get', '/content/spaces/{space_uid}/types/{type_uid}'] });
          }} />
        </Paper>
      )}
    </Stack>
  );
}

/** While a filterable field's index is being built, says so, and asks again every two seconds until it is ready. */
function IndexProgress({ path }: { path: { space_uid: string; type_uid: string } }) {
  const { t } = useI18n();
  const plan = api.useQuery('get', '/content/spaces/{space_uid}/types/{type_uid}/query_plan', { params: { path } }, {
    refetchInterval: (query) => (query.state.data?.indexes.some((index) => !index.ready) ? 2000 : false),
  });
  const building = (plan.data?.indexes ?? []).filter((index) => !index.ready).map((index) => index.field);
  if (!building.length) return null;
  return <Alert role="status" color="blue">{t('content.indexBuilding', { fields: building.join(', ') })}</Alert>;
}
