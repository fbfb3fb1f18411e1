import { useState } from 'react';
import { Button, Modal } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { ListPage, type Column } from '../../components/list-page';
import { listQuery } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { CustomFieldForm, fieldTypeWord } from './custom-field-form';
import { RowActions } from '../../components/row-actions';

type CustomField = AdminComponents['schemas']['CustomField'];
const route = getRouteApi('/app/realms/$realmUid/fields');
const LIST = '/customers/{realm_uid}/custom_fields';

/** The realm's custom fields: list, create, edit and delete (at most 20 per realm). */
export function CustomFieldsPage() {
  const { t } = useI18n();
  const { can } = useSession();
  const { realmUid } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/realms/$realmUid/fields' });
  const queryClient = useQueryClient();
  const path = { realm_uid: realmUid };
  const list = api.useQuery('get', LIST, { params: { path, query: listQuery(search) } });
  const [editing, setEditing] = useState<CustomField | 'new' | null>(null);
  const manage = can('realms.manage', realmUid);
  const done = async () => {
    setEditing(null);
    await queryClient.invalidateQueries({ queryKey: ['get', LIST] });
  };

  const columns: Column<CustomField>[] = [
    { key: 'key', label: t('realms.key'), sortable: true, text: (field) => field.key, render: (field) => field.key },
    { key: 'name', label: t('realms.name'), sortable: true, text: (field) => field.name, render: (field) => field.name },
    { key: 'type', label: t('realms.type'), width: 140, render: (field) => t(fieldTypeWord(field.type)) },
    { key: 'required', label: t('realms.required'), width: 120, render: (field) => (field.required ? t('common.yes') : t('common.no')) },
    ...(manage ? [{ key: 'actions', label: t('common.actions'), width: 190, render: (field: CustomField) => (
      <RowActions name={field.name} listPath={LIST} onEdit={() => setEditing(field)}
        onDelete={() => admin.DELETE('/customers/{realm_uid}/custom_fields/{id}', { params: { path: { ...path, id: field.id } } })} />
    ) }] : []),
  ];

  return (
    <>
      <ListPage
        title={t('realms.customFields')}
        columns={columns}
        rowKey={(field) => field.id}
        items={list.data?.custom_fields}
        meta={list.data?.meta}
        loading={list.isLoading}
        error={list.error}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
        actions={manage && <Button onClick={() => setEditing('new')}>{t('realms.newField')}</Button>}
      />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing === 'new' ? 'realms.newField' : 'realms.editField')}>
        {editing !== null && (
          <CustomFieldForm
            field={editing === 'new' ? undefined : editing}
            onCancel={() => setEditing(null)}
            onSubmit={async (body) => {
              if (editing === 'new') await admin.POST(LIST, { params: { path }, body });
              else await admin.PUT('/customers/{realm_uid}/custom_fields/{id}', { params: { path: { ...path, id: editing.id } }, body });
              await done();
            }}
          />
        )}
      </Modal>
    </>
  );
}
