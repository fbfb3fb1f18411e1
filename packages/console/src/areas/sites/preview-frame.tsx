import { useState } from 'react';
import { Button, Group, Modal, Select } from '@mantine/core';
import { admin } from '../../api/client';
import { messageOf } from '../../api/errors';
import { useI18n } from '../../i18n/i18n';
import type { Site } from './site-form';
import { notify } from '../../components/notify';

/**
 * Preview: a signed link to the page as the drafts show it (POST /previews), in a frame. The frame is sandboxed
 * without same-origin: the site's own scripts run, but cannot reach the console's session.
 */
export function PreviewButton({ site, pageId, title }: { site: Site; pageId: number; title: string }) {
  const { t } = useI18n();
  const [locale, setLocale] = useState(site.default_locale);
  const [url, setUrl] = useState<string | null>(null);
  const open = async () => {
    try {
      const { data } = await admin.POST('/sites/{site_uid}/previews', { params: { path: { site_uid: site.uid } }, body: { page_id: pageId, locale } });
      setUrl(new URL(data!.url, window.location.origin).pathname);
    } catch (error) {
      notify(messageOf(error, t), 'red');
    }
  };
  return (
    <Group align="flex-end" gap="xs">
      {site.locales.length > 1 && (
        <Select label={t('sites.previewLocale')} data={site.locales} value={locale} allowDeselect={false} w={120} onChange={(value) => setLocale(value ?? site.default_locale)} />
      )}
      <Button variant="default" onClick={() => void open()}>{t('sites.preview')}</Button>
      <Modal opened={url !== null} onClose={() => setUrl(null)} title={t('sites.previewOf', { title })} size="90%">
        {url && <iframe src={url} title={t('sites.previewFrame', { title, locale })} sandbox="allow-scripts" style={{ width: '100%', height: '70vh', border: '1px solid #ced4da' }} />}
      </Modal>
    </Group>
  );
}
