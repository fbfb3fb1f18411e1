import { Anchor, Button, Modal } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { confirmDelete } from '../../components/confirm-delete';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { AssetUploadForm } from './asset-upload-form';
import { uploadAsset } from './upload-asset';
import { notify } from '../../components/notify';

type Asset = AdminComponents['schemas']['ContentAssetListItem'];
const route = getRouteApi('/app/content/$spaceUid/assets');
const LIST = '/content/spaces/{space_uid}/assets';

/** A size in bytes as people read it: 71 B, 12.5 KB, 3.2 MB. */
const sizeOf = (bytes: number, formatNumber: (value: number) => string) => (bytes < 1024 ? `${formatNumber(bytes)} B`
  : bytes < 1024 * 1024 ? `${formatNumber(Math.round(bytes / 102.4) / 10)} KB` : `${formatNumber(Math.round(bytes / 104857.6) / 10)} MB`);

/** The images and files of a space: list (searched by file name), upload and delete. */
export function AssetsPage() {
  const { t, formatDate, formatNumber } = useI18n();
  const { can } = useSession();
  const { spaceUid } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/content/$spaceUid/assets' });
  const queryClient = useQueryClient();
  const path = { space_uid: spaceUid };
  const list = api.useQuery('get', LIST, { params: { path, query: listQuery(search) } });
  const [uploading, { open, close }] = useDisclosure(false);
  const write = can('content.write', spaceUid);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', LIST] });

  const columns: Column<Asset>[] = [
    { key: 'file_name', label: t('content.fileName'), sortable: true, text: (asset) => asset.file_name ?? '', render: (asset) => (
      <Anchor href={asset.url} target="_blank" rel="noopener noreferrer">{asset.file_name}</Anchor>
    ) },
    { key: 'title', label: t('content.title'), text: (asset) => asset.title ?? '', render: (asset) => asset.title },
    { key: 'content_type', label: t('content.mediaType'), text: (asset) => asset.content_type ?? '', render: (asset) => asset.content_type },
    { key: 'size', label: t('content.size'), sortable: true, width: 110, render: (asset) => sizeOf(asset.size ?? 0, formatNumber) },
    { key: 'updated_at', label: t('content.updated'), sortable: true, width: 200, text: (asset) => formatDate(asset.updated_at), render: (asset) => formatDate(asset.updated_at) },
    ...(write ? [{ key: 'actions', label: t('common.actions'), width: 120, render: (asset: Asset) => (
      <Button size="xs" variant="default" onClick={() => confirmDelete(t, asset.file_name ?? '', async () => {
        await admin.DELETE('/content/spaces/{space_uid}/assets/{uuid}', { params: { path: { ...path, uuid: asset.uuid ?? '' } } });
        notify(t('common.deleted'));
        await refresh();
      })}>{t('common.delete')}</Button>
    ) }] : []),
  ];

  return (
    <>
      <ListPage
        title={t('content.assets')} columns={columns} rowKey={(asset) => asset.uuid ?? ''}
        items={list.data?.assets} meta={list.data?.meta} loading={list.isLoading} error={list.error}
        search={search} onSearch={(next) => void navigate({ search: next })}
        actions={write && <Button onClick={open}>{t('content.upload')}</Button>}
      />
      <Modal opened={uploading} onClose={close} title={t('content.uploadAsset')}>
        <AssetUploadForm onCancel={close} onSubmit={async (values) => {
          if (!values.file) return;
          await uploadAsset(spaceUid, values.file, values.title);
          close();
          await refresh();
        }} />
      </Modal>
    </>
  );
}
