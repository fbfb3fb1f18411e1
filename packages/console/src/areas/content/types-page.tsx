import { Button, Group, Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { useSpace } from './space-layout';
import { TypeForm } from './type-form';

type ContentType = AdminComponents['schemas']['ContentTypeListItem'];
const route = getRouteApi('/app/content/$spaceUid/');
const LIST = '/content/spaces/{space_uid}/types';

/** The content types of a space: list, and create with its fields. */
export function TypesPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { spaceUid } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/content/$spaceUid/' });
  const queryClient = useQueryClient();
  const path = { space_uid: spaceUid };
  const list = api.useQuery('get', LIST, { params: { path, query: listQuery(search) } });
  const [creating, { open, close }] = useDisclosure(false);
  const space = useSpace(spaceUid);

  const columns: Column<ContentType>[] = [
    { key: 'uid', label: t('content.uid'), sortable: true, text: (type) => type.uid ?? '', render: (type) => (
      <AnchorLink to="/content/$spaceUid/types/$typeUid/entries" params={{ spaceUid, typeUid: type.uid ?? '' }}>{type.uid}</AnchorLink>
    ) },
    { key: 'name', label: t('content.name'), sortable: true, text: (type) => type.name ?? '', render: (type) => type.name },
    { key: 'fields', label: t('content.fields'), width: 130, render: (type) => t('content.fieldCount', { count: type.fields?.length ?? 0 }) },
    { key: 'updated_at', label: t('content.updated'), sortable: true, width: 200, text: (type) => formatDate(type.updated_at), render: (type) => formatDate(type.updated_at) },
    { key: 'actions', label: t('common.actions'), width: 210, render: (type) => (
      <Group gap="xs" wrap="nowrap">
        <AnchorLink to="/content/$spaceUid/types/$typeUid/entries" params={{ spaceUid, typeUid: type.uid ?? '' }}>{t('content.entries')}</AnchorLink>
        <AnchorLink to="/content/$spaceUid/types/$typeUid" params={{ spaceUid, typeUid: type.uid ?? '' }}>
          {t(can('content.manage', spaceUid) ? 'content.openType' : 'content.fields')}
        </AnchorLink>
      </Group>
    ) },
  ];

  return (
    <>
      <ListPage
        title={t('content.types')} columns={columns} rowKey={(type) => type.uid ?? ''}
        items={list.data?.types} meta={list.data?.meta} loading={list.isLoading} error={list.error}
        search={search} onSearch={(next) => void navigate({ search: next })}
        actions={can('content.manage', spaceUid) && <Button onClick={open}>{t('content.newType')}</Button>}
      />
      <Modal opened={creating} onClose={close} title={t('content.newType')} size="xl">
        {space.data && <TypeForm locale={space.data.default_locale} onCancel={close} onSubmit={async (body) => {
          const { data } = await admin.POST(LIST, { params: { path }, body });
          await queryClient.invalidateQueries({ queryKey: ['get', LIST] });
          close();
          await navigate({ to: '/content/$spaceUid/types/$typeUid', params: { spaceUid, typeUid: data!.uid } });
        }} />}
      </Modal>
    </>
  );
}
