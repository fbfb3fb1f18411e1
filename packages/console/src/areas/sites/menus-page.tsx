import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { DataTable } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import { FormActions } from '../../components/form-actions';
import { AnchorLink } from '../../components/links';
import { RowActions } from '../../components/row-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';
import { UidNameInputs } from '../content/uid-name-inputs';
import { useSession } from '../../session/session';

const route = getRouteApi('/app/sites/$siteUid/menus');
const MENUS = '/sites/{site_uid}/menus';

/** A site's navigation menus: list, create (uid and name), delete; each a link to its items. */
export function MenusPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { siteUid } = route.useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const menus = api.useQuery('get', MENUS, { params: { path: { site_uid: siteUid } } });
  const [creating, setCreating] = useState(false);
  const writable = can('site.write', siteUid);
  if (menus.error) return <ErrorView error={menus.error} />;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('sites.menus')}</Title>
        {writable && <Button size="xs" onClick={() => setCreating(true)}>{t('sites.newMenu')}</Button>}
      </Group>
      <DataTable
        items={menus.data?.menus ?? []} rowKey={(menu) => menu.uid} busy={menus.isLoading}
        columns={[
          { key: 'uid', label: t('sites.uid'), text: (menu) => menu.uid, render: (menu) => <AnchorLink to="/sites/$siteUid/menus/$menuUid" params={{ siteUid, menuUid: menu.uid }}>{menu.uid}</AnchorLink> },
          { key: 'name', label: t('sites.name'), text: (menu) => menu.name, render: (menu) => menu.name },
          { key: 'items', label: t('sites.items'), width: 100, render: (menu) => menu.items.length },
          { key: 'updated_at', label: t('sites.updated'), width: 200, text: (menu) => formatDate(menu.updated_at), render: (menu) => formatDate(menu.updated_at) },
          { key: 'actions', label: t('common.actions'), width: 190, render: (menu) => writable && (
            <RowActions name={menu.name} listPath={MENUS}
              onEdit={() => void navigate({ to: '/sites/$siteUid/menus/$menuUid', params: { siteUid, menuUid: menu.uid } })}
              onDelete={() => admin.DELETE('/sites/{site_uid}/menus/{menu_uid}', { params: { path: { site_uid: siteUid, menu_uid: menu.uid } } })} />
          ) },
        ]}
      />
      {menus.data?.menus.length === 0 && <Text size="sm">{t('sites.noneYet')}</Text>}
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('sites.newMenu')}>
        {creating && <MenuForm onCancel={() => setCreating(false)} onSubmit={async (values) => {
          await admin.POST(MENUS, { params: { path: { site_uid: siteUid } }, body: { ...values, items: [] } });
          setCreating(false);
          await queryClient.invalidateQueries({ queryKey: ['get', MENUS] });
          await navigate({ to: '/sites/$siteUid/menus/$menuUid', params: { siteUid, menuUid: values.uid } });
        }} />}
      </Modal>
    </Stack>
  );
}

function MenuForm({ onSubmit, onCancel }: { onSubmit(values: { uid: string; name: string }): Promise<unknown>; onCancel(): void }) {
  const { t } = useI18n();
  const form = useForm({ initialValues: { uid: '', name: '' } });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'menu');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <UidNameInputs error={error} inputProps={form.getInputProps} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
