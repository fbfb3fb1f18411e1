import { useState } from 'react';
import { Button, Modal } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { RowActions } from '../../components/row-actions';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { SpaceForm } from './space-form';

type Space = AdminComponents['schemas']['ContentSpaceListItem'];
const route = getRouteApi('/app/content');
const LIST = '/content/spaces';

/** The content spaces the member reaches: list, create, edit and delete. */
export function SpacesPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/content' });
  const queryClient = useQueryClient();
  const list = api.useQuery('get', LIST, { params: { query: listQuery(search) } });
  const [editing, setEditing] = useState<Space | 'new' | null>(null);

  const columns: Column<Space>[] = [
    { key: 'uid', label: t('content.uid'), sortable: true, text: (space) => space.uid ?? '', render: (space) => (
      <AnchorLink to="/content/$spaceUid" params={{ spaceUid: space.uid ?? '' }}>{space.uid}</AnchorLink>
    ) },
    { key: 'name', label: t('content.name'), sortable: true, text: (space) => space.name ?? '', render: (space) => space.name },
    { key: 'locales', label: t('content.locales'), render: (space) => space.locales?.join(', ') },
    { key: 'updated_at', label: t('content.updated'), sortable: true, width: 200, text: (space) => formatDate(space.updated_at), render: (space) => formatDate(space.updated_at) },
    { key: 'actions', label: t('common.actions'), width: 190, render: (space) => can('content.manage', space.uid) && (
      <RowActions name={space.name ?? ''} listPath={LIST} onEdit={() => setEditing(space)}
        onDelete={() => admin.DELETE('/content/spaces/{space_uid}', { params: { path: { space_uid: space.uid ?? '' } } })} />
    ) },
  ];

  return (
    <>
      <ListPage
        title={t('content.spaces')} columns={columns} rowKey={(space) => space.uid ?? ''}
        items={list.data?.spaces} meta={list.data?.meta} loading={list.isLoading} error={list.error}
        search={search} onSearch={(next) => void navigate({ search: next })}
        actions={can('content.manage') && <Button onClick={() => setEditing('new')}>{t('content.newSpace')}</Button>}
      />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing === 'new' ? 'content.newSpace' : 'content.editSpace')}>
        {editing !== null && (
          <SpaceForm item={editing === 'new' ? undefined : editing} onCancel={() => setEditing(null)} onSubmit={async (values) => {
            const body = { ...values, locales: values.locales.length ? values.locales : [values.default_locale] };
            if (editing === 'new') await admin.POST(LIST, { body });
            else await admin.PUT('/content/spaces/{space_uid}', { params: { path: { space_uid: editing.uid ?? '' } }, body });
            setEditing(null);
            await queryClient.invalidateQueries({ queryKey: ['get', LIST] });
          }} />
        )}
      </Modal>
    </>
  );
}
