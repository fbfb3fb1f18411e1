import { useState } from 'react';
import { ActionIcon, Badge, Box, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin } from '../../api/client';
import { messageOf } from '../../api/errors';
import { DataTable } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import { AnchorLink } from '../../components/links';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { PageForm, pageBody } from './page-form';
import { canMove, placementsFor, withDepth, type LayoutPage, type TreeMove } from './page-tree';
import { useSite } from './site-layout';
import { useDesignList } from './use-design';
import { PAGES_KEY, titleOf, usePages } from './use-pages';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/sites/$siteUid/pages');
const MOVES: { move: TreeMove; label: MessageKey; icon: string }[] = [
  { move: 'up', label: 'sites.moveUp', icon: '↑' }, { move: 'down', label: 'sites.moveDown', icon: '↓' },
  { move: 'outdent', label: 'sites.outdent', icon: '←' }, { move: 'indent', label: 'sites.indent', icon: '→' },
];

/** The page tree: each page indented by its depth, moved by buttons, and a dialog to create one. */
export function PagesPage() {
  const { t } = useI18n();
  const { can } = useSession();
  const { siteUid } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const site = useSite(siteUid);
  const pages = usePages(siteUid);
  const layouts = useDesignList(siteUid, 'layouts');
  const [creating, setCreating] = useState(false);
  const [moving, setMoving] = useState(false);
  const writable = can('site.write', siteUid);
  const failed = site.error ?? pages.error;
  if (failed) return <ErrorView error={failed} />;
  if (!site.data || !pages.data) return <Text role="status">{t('common.loading')}</Text>;
  const locale = site.data.default_locale;
  const all = pages.data;

  const move = async (page: LayoutPage, direction: TreeMove) => {
    setMoving(true);
    try {
      for (const { id, ...body } of placementsFor(all, page.id, direction)) {
        await admin.PUT('/sites/{site_uid}/layout_pages/{id}', { params: { path: { site_uid: siteUid, id } }, body });
      }
    } catch (error) {
      notify(messageOf(error, t), 'red');
    } finally {
      await queryClient.invalidateQueries({ queryKey: [PAGES_KEY, siteUid] });
      setMoving(false);
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('sites.pages')}</Title>
        {writable && <Button size="xs" onClick={() => setCreating(true)} disabled={!layouts.data?.length}>{t('sites.newPage')}</Button>}
      </Group>
      {layouts.data?.length === 0 && <Text size="sm">{t('sites.needLayout')}</Text>}
      <DataTable
        items={withDepth(all)} rowKey={({ page }) => page.id} busy={pages.isFetching || moving}
        columns={[
          { key: 'title', label: t('sites.pageTitle'), text: ({ page }) => titleOf(page, locale), render: ({ page, depth }) => (
            <Box pl={depth * 24}>
              <AnchorLink to="/sites/$siteUid/pages/$pageId" params={{ siteUid, pageId: String(page.id) }}>{titleOf(page, locale)}</AnchorLink>
            </Box>
          ) },
          { key: 'path', label: t('sites.path'), text: ({ page }) => page.paths[locale] ?? '', render: ({ page }) => <Text size="sm" ff="monospace">{page.paths[locale] ?? ''}</Text> },
          { key: 'visibility', label: t('sites.visibility'), width: 190, render: ({ page }) => (
            <Badge color={page.visibility === 'public' ? 'gray.7' : 'grape.9'}>{t(page.visibility === 'public' ? 'sites.visibilityPublic' : 'sites.visibilityRealm')}</Badge>
          ) },
          { key: 'actions', label: t('common.actions'), width: 200, render: ({ page }) => writable && (
            <Group gap={4} wrap="nowrap">
              {MOVES.map(({ move: direction, label, icon }) => (
                <ActionIcon key={direction} variant="default" aria-label={t(label, { title: titleOf(page, locale) })}
                  disabled={moving || !canMove(all, page.id, direction)} onClick={() => void move(page, direction)}>
                  <span aria-hidden="true">{icon}</span>
                </ActionIcon>
              ))}
            </Group>
          ) },
        ]}
      />
      {all.length === 0 && <Text size="sm">{t('sites.noneYet')}</Text>}
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('sites.newPage')}>
        {creating && (
          <PageForm site={site.data} layouts={(layouts.data ?? []).map((layout) => layout.name)} onCancel={() => setCreating(false)} onSubmit={async (values) => {
            const { data } = await admin.POST('/sites/{site_uid}/layout_pages', { params: { path: { site_uid: siteUid } }, body: pageBody(values) });
            setCreating(false);
            await queryClient.invalidateQueries({ queryKey: [PAGES_KEY, siteUid] });
            await navigate({ to: '/sites/$siteUid/pages/$pageId', params: { siteUid, pageId: String(data!.id) } });
          }} />
        )}
      </Modal>
    </Stack>
  );
}
