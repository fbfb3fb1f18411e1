import { useState } from 'react';
import { Button, FileButton, Group } from '@mantine/core';
import { api } from '../../api/client';
import { FormError } from '../../components/form-error';
import { ServerSelect, type Option } from '../../components/server-select';
import { useI18n } from '../../i18n/i18n';
import { uploadAsset } from './upload-asset';

interface AssetInputProps { spaceUid: string; label: string; value: string | null; onChange(uuid: string | null): void; withAsterisk?: boolean; error?: string; upload: boolean }

/** An asset field: an asset of the space picked by its file name (searched on the server), or a file uploaded here. */
export function AssetInput({ spaceUid, upload, ...props }: AssetInputProps) {
  const { t } = useI18n();
  const [failed, setFailed] = useState<unknown>(null);
  const path = { space_uid: spaceUid };
  const current = api.useQuery('get', '/content/spaces/{space_uid}/assets/{uuid}', { params: { path: { ...path, uuid: props.value ?? '' } } }, { enabled: !!props.value });
  const useOptions = (search: string): { options: Option[]; loading: boolean } => {
    const list = api.useQuery('get', '/content/spaces/{space_uid}/assets', { params: { path, query: { per_page: '20', ...(search ? { query: search } : {}) } } });
    return { options: (list.data?.assets ?? []).map((asset) => ({ value: asset.uuid ?? '', label: asset.file_name ?? '' })), loading: list.isLoading };
  };
  return (
    <div>
      <Group align="flex-end" wrap="nowrap">
        <ServerSelect {...props} style={{ flex: 1 }} placeholder={t('content.chooseAsset')} clearButtonProps={{ 'aria-label': t('content.clear', { name: props.label }) }} useOptions={useOptions} selectedLabel={current.data?.file_name} />
        {upload && (
          <FileButton onChange={async (file) => {
            if (!file) return;
            setFailed(null);
            try {
              props.onChange((await uploadAsset(spaceUid, file)).uuid);
            } catch (error) {
              setFailed(error);
            }
          }}>
            {(button) => <Button variant="default" {...button} aria-label={`${t('content.upload')}: ${props.label}`}>{t('content.upload')}</Button>}
          </FileButton>
        )}
      </Group>
      <FormError error={failed} />
    </div>
  );
}
