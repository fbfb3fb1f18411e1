import { Badge, Button, Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { ACTIVE_GREEN } from '../../app/theme';
import { RealmForm } from './realm-form';

type Realm = AdminComponents['schemas']['Realm'];
const route = getRouteApi('/app/realms');

export function RealmsPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/realms' });
  const list = api.useQuery('get', '/realms', { params: { query: listQuery(search) } });
  const [creating, { open, close }] = useDisclosure(false);

  const columns: Column<Realm>[] = [
    { key: 'uid', label: t('realms.uid'), sortable: true, text: (realm) => realm.uid, render: (realm) => <AnchorLink to="/realms/$realmUid" params={{ realmUid: realm.uid }}>{realm.uid}</AnchorLink> },
    { key: 'name', label: t('realms.name'), sortable: true, text: (realm) => realm.name, render: (realm) => realm.name },
    { key: 'active', label: t('realms.active'), width: 110, render: (realm) => <Badge color={realm.active ? ACTIVE_GREEN : 'gray.7'}>{realm.active ? t('common.yes') : t('common.no')}</Badge> },
    { key: 'updated_at', label: t('realms.updated'), sortable: true, width: 200, text: (realm) => formatDate(realm.updated_at), render: (realm) => formatDate(realm.updated_at) },
  ];

  return (
    <>
      <ListPage
        title={t('realms.title')}
        columns={columns}
        rowKey={(realm) => realm.uid}
        items={list.data?.realms}
        meta={list.data?.meta}
        loading={list.isLoading}
        error={list.error}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
        actions={can('realms.manage') && <Button onClick={open}>{t('realms.newRealm')}</Button>}
      />
      <Modal opened={creating} onClose={close} title={t('realms.newRealm')}>
        <RealmForm
          onCancel={close}
          onSubmit={async (values) => {
            const { data } = await admin.POST('/realms', { body: { ...values, custom_domain: values.custom_domain || null } });
            close();
            await navigate({ to: '/realms/$realmUid', params: { realmUid: data!.uid } });
          }}
        />
      </Modal>
    </>
  );
}
