import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { AnchorLink, ButtonLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { RealmFilter } from './realm-filter';

type Origination = AdminComponents['schemas']['Origination'];
const route = getRouteApi('/app/originations');

/** A realm's originations (the realm picked in the URL): server-paginated, sorted and searched. */
export function OriginationsPage() {
  const { t, formatDate, formatNumber } = useI18n();
  const { can } = useSession();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/originations' });
  const realmUid = search.realm ?? '';
  const list = api.useQuery('get', '/customers/{realm_uid}/originations', { params: { path: { realm_uid: realmUid }, query: listQuery(search) } }, { enabled: !!search.realm });

  const columns: Column<Origination>[] = [
    { key: 'name', label: t('originations.name'), sortable: true, text: (item) => item.name, render: (item) => (
      <AnchorLink to="/originations/$realmUid/$originationId" params={{ realmUid, originationId: String(item.id) }}>{item.name}</AnchorLink>
    ) },
    { key: 'steps', label: t('originations.steps'), width: 100, render: (item) => formatNumber(item.steps.length) },
    { key: 'tasks', label: t('originations.tasks'), width: 100, render: (item) => formatNumber(item.steps.reduce((sum, step) => sum + step.tasks.length, 0)) },
    { key: 'deadline_days', label: t('originations.deadlineDays'), width: 140, render: (item) => (item.deadline_days === null ? t('originations.noDeadline') : formatNumber(item.deadline_days)) },
    { key: 'updated_at', label: t('originations.updated'), sortable: true, width: 200, text: (item) => formatDate(item.updated_at), render: (item) => formatDate(item.updated_at) },
  ];

  return (
    <ListPage
      title={t('originations.originations')} columns={columns} rowKey={(item) => item.id}
      items={list.data?.originations} meta={list.data?.meta} loading={list.isLoading} error={list.error}
      search={search} onSearch={(next) => void navigate({ search: { ...next, realm: search.realm } })}
      filters={<RealmFilter realm={search.realm} onChange={(realm) => void navigate({ search: { realm } })} />}
      actions={search.realm && can('realm.originations.manage', search.realm) && (
        <ButtonLink to="/originations/new" search={{ realm: search.realm }}>{t('originations.newOrigination')}</ButtonLink>
      )}
    />
  );
}
