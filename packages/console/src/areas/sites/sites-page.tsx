import { useState } from 'react';
import { Badge, Button, Modal } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { RowActions } from '../../components/row-actions';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { SiteForm, siteBody, useHeldEverywhere, type Site } from './site-form';

const route = getRouteApi('/app/sites');
const LIST = '/sites';

/** The sites the member reaches: list, create, edit and delete. */
export function SitesPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/sites' });
  const queryClient = useQueryClient();
  const list = api.useQuery('get', LIST, { params: { query: listQuery(search) } });
  const [editing, setEditing] = useState<Site | 'new' | null>(null);
  // Creating (and deleting) a site needs site.write from an account role.
  const mayCreate = useHeldEverywhere('site.write');

  const columns: Column<Site>[] = [
    { key: 'uid', label: t('sites.uid'), sortable: true, text: (site) => site.uid, render: (site) => (
      <AnchorLink to="/sites/$siteUid" params={{ siteUid: site.uid }}>{site.uid}</AnchorLink>
    ) },
    { key: 'name', label: t('sites.name'), sortable: true, text: (site) => site.name, render: (site) => site.name },
    { key: 'locales', label: t('sites.locales'), render: (site) => site.locales.join(', ') },
    { key: 'published', label: t('sites.publishedVersion'), width: 200, render: (site) => site.published_version === null
      ? <Badge color="gray.7">{t('sites.notPublished')}</Badge>
      : t('sites.versionNumber', { number: site.published_version }) },
    { key: 'updated_at', label: t('sites.updated'), sortable: true, width: 200, text: (site) => formatDate(site.updated_at), render: (site) => formatDate(site.updated_at) },
    // Deleting a site needs an account role too; a site role may only edit its site.
    { key: 'actions', label: t('common.actions'), width: 190, render: (site) => (mayCreate ? (
      <RowActions name={site.name} listPath={LIST} onEdit={() => setEditing(site)}
        onDelete={() => admin.DELETE('/sites/{site_uid}', { params: { path: { site_uid: site.uid } } })} />
    ) : can('site.write', site.uid) && <Button size="xs" variant="default" onClick={() => setEditing(site)}>{t('common.edit')}</Button>) },
  ];

  return (
    <>
      <ListPage
        title={t('sites.sites')} columns={columns} rowKey={(site) => site.uid}
        items={list.data?.sites} meta={list.data?.meta} loading={list.isLoading} error={list.error}
        search={search} onSearch={(next) => void navigate({ search: next })}
        actions={mayCreate && <Button onClick={() => setEditing('new')}>{t('sites.newSite')}</Button>}
      />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing === 'new' ? 'sites.newSite' : 'sites.editSite')}>
        {editing !== null && (
          <SiteForm item={editing === 'new' ? undefined : editing} onCancel={() => setEditing(null)} onSubmit={async (values) => {
            const body = siteBody(values);
            if (editing === 'new') await admin.POST(LIST, { body });
            else await admin.PUT('/sites/{site_uid}', { params: { path: { site_uid: editing.uid } }, body });
            setEditing(null);
            await queryClient.invalidateQueries({ queryKey: ['get', LIST] });
            await queryClient.invalidateQueries({ queryKey: ['get', '/sites/{site_uid}'] });
          }} />
        )}
      </Modal>
    </>
  );
}
