import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { messageOf } from '../../api/errors';
import { DetailHeader } from '../../components/detail-header';
import { ErrorView } from '../../components/error-view';
import { AnchorLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { LeaveGuard } from '../../components/leave-guard';
import { BlockEditor } from './block-editor';
import { blockBody, blockValues, type Block, type BlockValues } from './blocks';
import { LockBanner } from './lock-banner';
import { PageWords, wordsBody, type PageSettings } from './page-words';
import type { LayoutPage } from './page-tree';
import { PreviewButton } from './preview-frame';
import type { Site } from './site-form';
import { useSite } from './site-layout';
import { useDesignList } from './use-design';
import { useEditLock } from './use-edit-lock';
import { PAGES_KEY, titleOf } from './use-pages';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/sites/$siteUid/pages/$pageId');
const PAGE = '/sites/{site_uid}/layout_pages/{id}';

/** A page in the editor: its words per locale, layout, visibility and blocks, under its edit lock. */
export function PageEditorPage() {
  const { t } = useI18n();
  const { siteUid, pageId } = route.useParams();
  const site = useSite(siteUid);
  const page = api.useQuery('get', PAGE, { params: { path: { site_uid: siteUid, id: Number(pageId) } } });
  const failed = site.error ?? page.error;
  if (failed) return <ErrorView error={failed} />;
  if (!site.data || !page.data) return <Text role="status">{t('common.loading')}</Text>;
  return <PageEditor key={page.data.id} site={site.data} page={page.data} />;
}

function PageEditor({ site, page }: { site: Site; page: LayoutPage }) {
  const { t } = useI18n();
  const { can } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const layouts = useDesignList(site.uid, 'layouts');
  const lock = useEditLock('layout_page', String(page.id), can('site.write', site.uid));
  const [settings, setSettings] = useState<PageSettings>({
    layout: page.layout, visibility: page.visibility,
    words: Object.fromEntries(site.locales.map((locale) => [locale, { title: '', description: '', slug: '', ...page.locales[locale] }])),
  });
  const [blocks, setBlocks] = useState<BlockValues[]>(() => (page.blocks as Block[]).map(blockValues));
  const [failure, setFailure] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const writable = lock.writable;
  const title = titleOf(page, site.default_locale);
  const body = () => ({ layout: settings.layout, visibility: settings.visibility, locales: wordsBody(settings.words), blocks: blocks.map(blockBody) });
  // What was last saved: leaving with other values asks first.
  const [saved, setSaved] = useState(() => JSON.stringify(body()));

  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      await admin.PUT(PAGE, { params: { path: { site_uid: site.uid, id: page.id } }, body: body() });
      setSaved(JSON.stringify(body()));
      notify(t('sites.draftSaved'));
      // The page's cached answer too: the editor opened again starts from what was saved.
      await queryClient.invalidateQueries({ queryKey: [PAGES_KEY, site.uid] });
      await queryClient.invalidateQueries({ queryKey: ['get', PAGE] });
    } catch (error) {
      if (!lock.lostBy(error)) setFailure(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack>
      <AnchorLink to="/sites/$siteUid/pages" params={{ siteUid: site.uid }} size="sm">{t('sites.backToPages')}</AnchorLink>
      <LeaveGuard dirty={() => JSON.stringify(body()) !== saved} />
      <DetailHeader title={title} canDelete={writable} remove={async () => {
        await admin.DELETE(PAGE, { params: { path: { site_uid: site.uid, id: page.id } } });
        await queryClient.invalidateQueries({ queryKey: [PAGES_KEY, site.uid] });
        await navigate({ to: '/sites/$siteUid/pages', params: { siteUid: site.uid } });
      }} />
      <Text size="sm" c="dimmed">{Object.entries(page.paths).map(([locale, path]) => `${locale}: ${path}`).join(' · ')}</Text>
      <LockBanner state={lock.state} canTakeOver={can('site.publish', site.uid)} onTakeOver={() => void lock.takeOver()} onReadOnly={lock.openReadOnly}
        text={() => JSON.stringify(body(), null, 2)} />
      {failure !== null && <Alert color="red" role="alert">{messageOf(failure, t)}</Alert>}
      <PageWords site={site} layouts={(layouts.data ?? []).map((layout) => layout.name)} value={settings} onChange={setSettings} readOnly={!writable} />
      <Title order={2}>{t('sites.blocks')}</Title>
      <BlockEditor site={site} blocks={blocks} onChange={setBlocks} readOnly={!writable} />
      <Group justify="space-between" align="flex-end">
        <PreviewButton site={site} pageId={page.id} title={title} />
        {writable && <Button loading={saving} onClick={() => void save()}>{t('common.save')}</Button>}
      </Group>
    </Stack>
  );
}
