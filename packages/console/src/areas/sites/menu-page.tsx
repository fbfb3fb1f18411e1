import { useState } from 'react';
import { Alert, Badge, Box, Button, Fieldset, Group, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { messageOf } from '../../api/errors';
import { ErrorView } from '../../components/error-view';
import { AnchorLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { LeaveGuard } from '../../components/leave-guard';
import { moved } from './blocks';
import { LockBanner } from './lock-banner';
import { flatten, nest, newRow, shifted, type ItemRow, type MenuItem } from './menu-items';
import type { Site } from './site-form';
import { useSite } from './site-layout';
import { useEditLock } from './use-edit-lock';
import { titleOf, usePages } from './use-pages';
import { notify } from '../../components/notify';

type Menu = AdminComponents['schemas']['SiteMenu'];
const route = getRouteApi('/app/sites/$siteUid/menus/$menuUid');
const MENU = '/sites/{site_uid}/menus/{menu_uid}';
const ENTRY_LABELS = { space_uid: 'sites.space', type_uid: 'sites.contentType', entry_uuid: 'sites.entryUuid' } as const;

/** A menu's items: label per locale, a page of the site or an address as target, nested by indent. */
export function MenuPage() {
  const { t } = useI18n();
  const { siteUid, menuUid } = route.useParams();
  const site = useSite(siteUid);
  const menu = api.useQuery('get', MENU, { params: { path: { site_uid: siteUid, menu_uid: menuUid } } });
  const failed = site.error ?? menu.error;
  if (failed) return <ErrorView error={failed} />;
  if (!site.data || !menu.data) return <Text role="status">{t('common.loading')}</Text>;
  return <MenuEditor key={menu.data.uid} site={site.data} menu={menu.data} />;
}

function MenuEditor({ site, menu }: { site: Site; menu: Menu }) {
  const { t } = useI18n();
  const { can } = useSession();
  const queryClient = useQueryClient();
  const pages = usePages(site.uid);
  const lock = useEditLock('menu', `${site.uid}/${menu.uid}`, can('site.write', site.uid));
  const [rows, setRows] = useState<ItemRow[]>(() => flatten(menu.items as MenuItem[]));
  const [failure, setFailure] = useState<unknown>(null);
  const writable = lock.writable;
  const [saved, setSaved] = useState(() => JSON.stringify(nest(rows)));
  const readOnly = !writable;
  const pageOptions = (pages.data ?? []).map((page) => ({ value: String(page.id), label: titleOf(page, site.default_locale) }));
  const change = (index: number, patch: Partial<ItemRow>) => setRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  const save = async () => {
    setFailure(null);
    try {
      await admin.PUT(MENU, { params: { path: { site_uid: site.uid, menu_uid: menu.uid } }, body: { items: nest(rows) } });
      setSaved(JSON.stringify(nest(rows)));
      notify(t('sites.draftSaved'));
      await queryClient.invalidateQueries({ queryKey: ['get', MENU] });
    } catch (error) {
      if (!lock.lostBy(error)) setFailure(error);
    }
  };

  return (
    <Stack>
      <AnchorLink to="/sites/$siteUid/menus" params={{ siteUid: site.uid }} size="sm">{t('sites.backToMenus')}</AnchorLink>
      <LeaveGuard dirty={() => JSON.stringify(nest(rows)) !== saved} />
      <Title order={2}>{menu.name}</Title>
      <LockBanner state={lock.state} canTakeOver={can('site.publish', site.uid)} onTakeOver={() => void lock.takeOver()} onReadOnly={lock.openReadOnly}
        text={() => JSON.stringify(nest(rows), null, 2)} />
      {failure !== null && <Alert color="red" role="alert">{messageOf(failure, t)}</Alert>}
      {rows.length === 0 && <Text size="sm">{t('sites.noItems')}</Text>}
      {rows.map((row, index) => {
        const name = t('sites.itemNumber', { number: index + 1 });
        return (
          <Box key={row.key} pl={row.depth * 32}>
            <Fieldset legend={name} data-menu-item={index}>
              <Stack gap="xs">
                {row.broken && <Badge color="red.9" w="fit-content">{t('sites.brokenItem')}</Badge>}
                <Group grow>
                  {site.locales.map((locale) => (
                    <TextInput key={locale} label={t('sites.labelIn', { locale })} value={row.labels[locale] ?? ''} readOnly={readOnly}
                      required={locale === site.default_locale} onChange={(event) => change(index, { labels: { ...row.labels, [locale]: event.currentTarget.value } })} />
                  ))}
                </Group>
                <SegmentedControl aria-label={t('sites.target')} readOnly={readOnly} value={row.target}
                  data={[{ value: 'page', label: t('sites.targetPage') }, { value: 'url', label: t('sites.targetUrl') }, { value: 'entry', label: t('sites.targetEntry') }]}
                  onChange={(target) => change(index, { target: target as ItemRow['target'], broken: false })} w="fit-content" />
                {row.target === 'entry' && (
                  <Group grow>
                    {(['space_uid', 'type_uid', 'entry_uuid'] as const).map((key) => (
                      <TextInput key={key} label={t(ENTRY_LABELS[key])} value={row.entry[key] ?? ''} readOnly={readOnly}
                        onChange={(event) => change(index, { entry: { ...row.entry, [key]: event.currentTarget.value } })} />
                    ))}
                  </Group>
                )}
                {row.target === 'page' && (
                  <Select label={t('sites.targetPagePick')} data={pageOptions} value={row.page_id || null} readOnly={readOnly} searchable
                    onChange={(value) => change(index, { page_id: value ?? '', broken: false })} />
                )}
                {row.target === 'url' && (
                  <TextInput label={t('sites.targetUrlInput')} value={row.url} readOnly={readOnly} placeholder="https://" onChange={(event) => change(index, { url: event.currentTarget.value, target: 'url' })} />
                )}
                {!readOnly && (
                  <Group gap="xs">
                    <Button size="xs" variant="default" aria-label={t('sites.moveItemUp', { name })} disabled={index === 0} onClick={() => setRows(moved(rows, index, -1))}>{t('sites.up')}</Button>
                    <Button size="xs" variant="default" aria-label={t('sites.moveItemDown', { name })} disabled={index === rows.length - 1} onClick={() => setRows(moved(rows, index, 1))}>{t('sites.down')}</Button>
                    <Button size="xs" variant="default" aria-label={t('sites.outdentItem', { name })} disabled={row.depth === 0} onClick={() => setRows(shifted(rows, index, -1))}>{t('sites.outdentShort')}</Button>
                    <Button size="xs" variant="default" aria-label={t('sites.indentItem', { name })} disabled={index === 0 || rows[index - 1]!.depth < row.depth} onClick={() => setRows(shifted(rows, index, 1))}>{t('sites.indentShort')}</Button>
                    <Button size="xs" variant="default" aria-label={t('sites.removeItem', { name })} onClick={() => setRows(rows.filter((_, i) => i !== index))}>{t('sites.remove')}</Button>
                  </Group>
                )}
              </Stack>
            </Fieldset>
          </Box>
        );
      })}
      {!readOnly && (
        <Group justify="space-between">
          <Button variant="default" onClick={() => setRows([...rows, newRow()])}>{t('sites.addItem')}</Button>
          <Button onClick={() => void save()}>{t('common.save')}</Button>
        </Group>
      )}
    </Stack>
  );
}
