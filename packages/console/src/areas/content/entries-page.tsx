import { Select } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { AnchorLink, ButtonLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { isPublished } from './entry-summary';
import { useSpace } from './space-layout';

type Entry = AdminComponents['schemas']['ContentAdminEntryListItem'];
const route = getRouteApi('/app/content/$spaceUid/types/$typeUid/entries');

/** The entries of a type, one row per locale version: server-paginated, searched, the locale and version filters in the URL. */
export function EntriesPage() {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const { spaceUid, typeUid } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/content/$spaceUid/types/$typeUid/entries' });
  const space = useSpace(spaceUid);
  const type = api.useQuery('get', '/content/spaces/{space_uid}/types/{type_uid}', { params: { path: { space_uid: spaceUid, type_uid: typeUid } } });
  const { locale, version } = search;
  const list = api.useQuery('get', '/content/spaces/{space_uid}/types/{type_uid}/entries', {
    params: { path: { space_uid: spaceUid, type_uid: typeUid }, query: { ...listQuery(search), ...(locale ? { locale } : {}), ...(version ? { version } : {}) } },
  });
  const link = (entry: Entry) => (
    <AnchorLink to="/content/$spaceUid/types/$typeUid/entries/$entryUuid" params={{ spaceUid, typeUid, entryUuid: entry.meta?.uuid ?? '' }}
      search={{ locale: entry.meta?.locale }}>
      {entry.meta?.name}
    </AnchorLink>
  );

  const columns: Column<Entry>[] = [
    { key: 'name', label: t('content.name'), sortable: true, text: (entry) => entry.meta?.name ?? '', render: link },
    { key: 'slug', label: t('content.slug'), sortable: true, text: (entry) => entry.meta?.slug ?? '', render: (entry) => entry.meta?.slug },
    { key: 'locale', label: t('content.locale'), width: 100, render: (entry) => entry.meta?.locale },
    { key: 'published_at', label: t('content.status'), sortable: true, width: 280, text: (entry) => (isPublished(entry.meta)
      ? t('content.publishedAt', { date: formatDate(entry.meta?.published_at) }) : t('content.notPublished')), render: (entry) => (isPublished(entry.meta)
      ? t('content.publishedAt', { date: formatDate(entry.meta?.published_at) }) : t('content.notPublished')) },
    { key: 'updated_at', label: t('content.updated'), sortable: true, width: 200, text: (entry) => formatDate(entry.meta?.updated_at), render: (entry) => formatDate(entry.meta?.updated_at) },
  ];

  return (
    <ListPage
      title={type.data ? `${type.data.name}: ${t('content.entries')}` : t('content.entries')}
      columns={columns} rowKey={(entry) => `${entry.meta?.uuid}:${entry.meta?.locale}`}
      items={list.data?.entries} meta={list.data?.meta} loading={list.isLoading} error={list.error}
      search={search} onSearch={(next) => void navigate({ search: { ...next, locale, version } })}
      actions={(
        <>
          {can('content.manage', spaceUid) && <ButtonLink to="/content/$spaceUid/types/$typeUid" params={{ spaceUid, typeUid }} variant="default">{t('content.openType')}</ButtonLink>}
          {can('content.write', spaceUid) && <ButtonLink to="/content/$spaceUid/types/$typeUid/entries/$entryUuid" params={{ spaceUid, typeUid, entryUuid: 'new' }}>{t('content.newEntry')}</ButtonLink>}
        </>
      )}
      filters={(
        <>
          <Select label={t('content.locale')} clearable clearButtonProps={{ 'aria-label': t('content.clear', { name: t('content.locale') }) }} placeholder={t('content.anyLocale')} data={space.data?.locales ?? []} value={locale ?? null}
            onChange={(next) => void navigate({ search: { ...search, page: undefined, locale: next ?? undefined } })} w={180} />
          <Select label={t('content.version')} allowDeselect={false} value={version ?? 'draft'}
            data={[{ value: 'draft', label: t('content.draft') }, { value: 'published', label: t('content.published') }]}
            onChange={(next) => void navigate({ search: { ...search, page: undefined, version: next === 'published' ? 'published' : undefined } })} w={180} />
        </>
      )}
    />
  );
}
