import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { currentNaming, type AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { AnchorLink, ButtonLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { RealmSelect } from '../../components/realm-select';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import type { SegmentTree } from './segment-query';
import { SegmentSummaryText } from './segment-summary-text';

type Segment = AdminComponents['schemas']['Segment'];
const route = getRouteApi('/app/segments');

export function SegmentsPage() {
  const { t, formatDate, formatNumber } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/segments' });
  const list = api.useQuery('get', '/segments', { params: { query: { ...listQuery(search), ...(search.realm ? { realm_uid: search.realm } : {}) } } });

  const columns: Column<Segment>[] = [
    { key: 'name', label: t('engagement.segmentName'), sortable: true, text: (segment) => segment.name, render: (segment) => <AnchorLink to="/segments/$segmentId" params={{ segmentId: String(segment.id) }}>{segment.name}</AnchorLink> },
    { key: 'realm_uid', label: t('engagement.realm'), text: (segment) => segment.realm_uid, render: (segment) => segment.realm_uid },
    { key: 'filters_summary', label: t('engagement.summary'), render: (segment) => <SegmentSummaryText realmUid={segment.realm_uid} filters={segment.filters as SegmentTree} /> },
    { key: 'matches_count', label: t('engagement.matchesCount'), sortable: true, width: 140, render: (segment) => formatNumber(segment.matches_count) },
    { key: 'updated_at', label: t('engagement.updated'), sortable: true, width: 200, text: (segment) => formatDate(segment.updated_at), render: (segment) => formatDate(segment.updated_at) },
  ];

  return (
    <ListPage
      title={t('engagement.segments')}
      columns={columns}
      rowKey={(segment) => segment.id}
      items={currentNaming(list.data)?.segments}
      meta={currentNaming(list.data)?.meta}
      loading={list.isLoading}
      error={list.error}
      search={search}
      onSearch={(next) => void navigate({ search: { ...next, realm: search.realm } })}
      filters={<RealmSelect label={t('engagement.realm')} value={search.realm ?? null} onChange={(realm) => void navigate({ search: { ...search, realm: realm ?? undefined, page: undefined } })} w={320} />}
      actions={can('segments.manage', search.realm) && search.realm && <ButtonLink to="/segments/new" search={{ realm: search.realm }}>{t('engagement.newSegment')}</ButtonLink>}
    />
  );
}
