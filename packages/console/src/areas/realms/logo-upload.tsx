import { useState } from 'react';
import { Button, FileButton, Group, Select } from '@mantine/core';
import { api } from '../../api/client';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { uploadAsset } from '../content/upload-asset';

/** The image types the account's asset check accepts and the realm pages show (never SVG). */
const IMAGES = 'image/png,image/jpeg,image/gif,image/webp';

/** An asset's public URL as the logo address: a path when it is on this server (the realm pages allow images from 'self'). */
function logoAddress(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return parsed.origin === window.location.origin ? parsed.pathname : url;
}

/**
 * Uploads a logo as an asset of a content space the member may write to (content assets are public, checked
 * by their bytes), and hands its address on. Nothing is shown to a member who may write to no space.
 */
export function LogoUpload({ realmName, onUploaded }: { realmName: string; onUploaded(address: string): void }) {
  const { t } = useI18n();
  const { can } = useSession();
  const [failed, setFailed] = useState<unknown>(null);
  const spaces = api.useQuery('get', '/content/spaces', { params: { query: { per_page: '100' } } }, { enabled: can('content.write') });
  const writable = (spaces.data?.spaces ?? []).flatMap((space) => (space.uid && can('content.write', space.uid) ? [{ value: space.uid, label: space.name ?? space.uid }] : []));
  const [picked, setPicked] = useState<string | null>(null);
  const spaceUid = picked ?? writable[0]?.value ?? null;
  if (!spaceUid) return null;
  return (
    <div>
      <Group align="flex-end">
        <Select
          label={t('realms.logoSpace')} allowDeselect={false} value={spaceUid} onChange={setPicked}
          data={writable}
        />
        <FileButton accept={IMAGES} onChange={async (file) => {
          if (!file) return;
          setFailed(null);
          try {
            onUploaded(logoAddress((await uploadAsset(spaceUid, file, realmName)).url));
          } catch (error) {
            setFailed(error);
          }
        }}>
          {(button) => <Button variant="default" {...button}>{t('realms.uploadLogo')}</Button>}
        </FileButton>
      </Group>
      <FormError error={failed} />
    </div>
  );
}
