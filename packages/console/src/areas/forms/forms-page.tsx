import { Anchor, Badge, Button, Group } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { AnchorLink } from '../../components/links';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { RowActions } from '../../components/row-actions';
import { useI18n } from '../../i18n/i18n';
import { useMayManageForm } from './permissions';

export type Form = AdminComponents['schemas']['Form'];

const route = getRouteApi('/app/forms');
const LIST = '/forms';

/** The forms the member reaches: name, uid, who may answer, realm, responses; create, edit, delete. */
export function FormsPage() {
  const { t } = useI18n();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/forms' });
  const mayManage = useMayManageForm();
  const list = api.useQuery('get', LIST, { params: { query: listQuery(search) } });

  const columns: Column<Form>[] = [
    { key: 'name', label: t('forms.name'), text: (form) => form.name, render: (form) => (
      <AnchorLink to="/forms/$formUid" params={{ formUid: form.uid }}>{form.name}</AnchorLink>
    ) },
    { key: 'uid', label: t('forms.uid'), text: (form) => form.uid, render: (form) => form.uid },
    { key: 'access', label: t('forms.access'), width: 190, render: (form) => t(form.access === 'public' ? 'forms.accessPublic' : 'forms.accessRealmUsers') },
    { key: 'realm', label: t('forms.realm'), text: (form) => form.realm_uid ?? t('forms.noRealm'), render: (form) => form.realm_uid ?? t('forms.noRealm') },
    { key: 'active', label: t('forms.status'), width: 130, render: (form) => (
      <Badge color={form.active ? 'teal.9' : 'gray.7'}>{t(form.active ? 'forms.active' : 'forms.inactive')}</Badge>
    ) },
    { key: 'responses', label: t('forms.responseCount'), width: 120, render: (form) => (
      <AnchorLink to="/forms/$formUid/responses" params={{ formUid: form.uid }} aria-label={`${t('forms.responsesOf', { name: form.name })}: ${form.response_count}`}>{form.response_count}</AnchorLink>
    ) },
    { key: 'url', label: t('forms.openPage'), text: (form) => `/forms/${form.uid}`, render: (form) => <Anchor href={form.url} target="_blank" rel="noreferrer">/forms/{form.uid}</Anchor> },
    { key: 'actions', label: t('common.actions'), width: 190, render: (form) => mayManage(form.realm_uid) && (
      <RowActions name={form.name} listPath={LIST} onEdit={() => void navigate({ to: '/forms/$formUid', params: { formUid: form.uid } })}
        onDelete={() => admin.DELETE('/forms/{form_uid}', { params: { path: { form_uid: form.uid } } })} />
    ) },
  ];

  return (
    <ListPage
      title={t('forms.forms')} columns={columns} rowKey={(form) => form.uid} searchable={false}
      items={list.data?.forms} meta={list.data?.meta} loading={list.isLoading} error={list.error}
      search={search} onSearch={(next) => void navigate({ search: next })}
      actions={mayManage(undefined) && (
        <Group><Button onClick={() => void navigate({ to: '/forms/$formUid', params: { formUid: 'new' } })}>{t('forms.newForm')}</Button></Group>
      )}
    />
  );
}
