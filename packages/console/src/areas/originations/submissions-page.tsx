import { Badge, Text } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { UserSelect } from '../../components/user-select';
import { useI18n } from '../../i18n/i18n';
import { RealmFilter } from './realm-filter';
import { STATUS_COLORS, useTypeLabels } from './type-labels';

type Submission = AdminComponents['schemas']['Submission'];
const route = getRouteApi('/app/submissions');

/** A user's submissions: realm and user picked in the URL, searched by origination name, sorted and paginated by the server. */
export function SubmissionsPage() {
  const { t, formatDate } = useI18n();
  const { status } = useTypeLabels();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/submissions' });
  const realmUid = search.realm ?? '';
  const path = { realm_uid: realmUid, id: search.user ?? 0 };
  const ready = !!search.realm && !!search.user;
  const user = api.useQuery('get', '/customers/{realm_uid}/users/{id}', { params: { path } }, { enabled: ready });
  const list = api.useQuery('get', '/customers/{realm_uid}/users/{id}/submissions', { params: { path, query: listQuery(search) } }, { enabled: ready });

  const columns: Column<Submission>[] = [
    { key: 'origination_name', label: t('originations.origination'), text: (item) => item.origination_name, render: (item) => (
      <AnchorLink to="/submissions/$realmUid/$submissionId" params={{ realmUid, submissionId: String(item.id) }}>{item.origination_name}</AnchorLink>
    ) },
    { key: 'status', label: t('originations.status'), sortable: true, width: 150, render: (item) => <Badge color={STATUS_COLORS[item.status]}>{status(item.status)}</Badge> },
    { key: 'progress', label: t('originations.progress'), width: 110, render: (item) => item.progress },
    { key: 'deadline_at', label: t('originations.due'), sortable: true, width: 200, text: (item) => (item.due_deadline_at ? formatDate(item.due_deadline_at) : '—'), render: (item) => (item.due_deadline_at ? formatDate(item.due_deadline_at) : '—') },
    { key: 'assignee', label: t('originations.assignee'), text: (item) => item.assignee?.label ?? '—', render: (item) => item.assignee?.label ?? '—' },
    { key: 'created_at', label: t('originations.created'), sortable: true, width: 200, text: (item) => formatDate(item.created_at), render: (item) => formatDate(item.created_at) },
  ];

  return (
    <ListPage
      title={t('originations.submissions')} columns={columns} rowKey={(item) => item.id}
      items={list.data?.submissions} meta={list.data?.meta} loading={list.isLoading} error={list.error}
      search={search} onSearch={(next) => void navigate({ search: { ...next, realm: search.realm, user: search.user } })}
      filters={(
        <>
          <RealmFilter realm={search.realm} onChange={(realm) => void navigate({ search: { realm } })} />
          {search.realm && (
            <UserSelect key={search.realm} realmUid={search.realm} label={t('originations.user')} w={360} value={search.user ? String(search.user) : null}
              selectedLabel={user.data ? user.data.name || user.data.email : undefined}
              onChange={(id) => void navigate({ search: { realm: search.realm, user: id ? Number(id) : undefined } })} />
          )}
          {search.realm && !search.user && <Text role="status">{t('originations.chooseUser')}</Text>}
        </>
      )}
    />
  );
}
