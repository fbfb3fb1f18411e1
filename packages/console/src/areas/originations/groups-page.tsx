import { useState } from 'react';
import { Button, Modal } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { RowActions } from '../../components/row-actions';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { groupBody, GroupForm } from './group-form';
import { RealmFilter } from './realm-filter';

type Group = AdminComponents['schemas']['ReviewerGroup'];
const route = getRouteApi('/app/reviewer-groups');
const LIST = '/customers/{realm_uid}/groups';

/** A realm's reviewer groups (the realm picked in the URL): list, create, edit and delete. */
export function GroupsPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/reviewer-groups' });
  const queryClient = useQueryClient();
  const realmUid = search.realm ?? '';
  const path = { realm_uid: realmUid };
  const list = api.useQuery('get', LIST, { params: { path, query: listQuery(search) } }, { enabled: !!search.realm });
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const manage = !!search.realm && can('realm.originations.manage', search.realm);

  const columns: Column<Group>[] = [
    { key: 'name', label: t('originations.groupName'), sortable: true, text: (group) => group.name, render: (group) => group.name },
    { key: 'members', label: t('originations.members'), text: (group) => group.members.map((member) => member.name || member.email).join(', '), render: (group) => group.members.map((member) => member.name || member.email).join(', ') },
    { key: 'updated_at', label: t('originations.updated'), sortable: true, width: 200, text: (group) => formatDate(group.updated_at), render: (group) => formatDate(group.updated_at) },
    ...(manage ? [{ key: 'actions', label: t('common.actions'), width: 190, render: (group: Group) => (
      <RowActions name={group.name} listPath={LIST} onEdit={() => setEditing(group)}
        onDelete={() => admin.DELETE('/customers/{realm_uid}/groups/{id}', { params: { path: { ...path, id: group.id } } })} />
    ) }] : []),
  ];

  return (
    <>
      <ListPage
        title={t('originations.groups')} columns={columns} rowKey={(group) => group.id}
        items={list.data?.groups} meta={list.data?.meta} loading={list.isLoading} error={list.error}
        search={search} onSearch={(next) => void navigate({ search: { ...next, realm: search.realm } })}
        filters={<RealmFilter realm={search.realm} onChange={(realm) => void navigate({ search: { realm } })} />}
        actions={manage && <Button onClick={() => setEditing('new')}>{t('originations.newGroup')}</Button>}
      />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing === 'new' ? 'originations.newGroup' : 'originations.editGroup')}>
        {editing !== null && (
          <GroupForm item={editing === 'new' ? undefined : editing} onCancel={() => setEditing(null)} onSubmit={async (values) => {
            if (editing === 'new') await admin.POST(LIST, { params: { path }, body: groupBody(values) });
            else await admin.PUT('/customers/{realm_uid}/groups/{id}', { params: { path: { ...path, id: editing.id } }, body: groupBody(values) });
            setEditing(null);
            await queryClient.invalidateQueries({ queryKey: ['get', LIST] });
          }} />
        )}
      </Modal>
    </>
  );
}
