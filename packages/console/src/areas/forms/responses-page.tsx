import { Anchor, Badge, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { messageOf } from '../../api/errors';
import { confirmDelete } from '../../components/confirm-delete';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import { AnchorLink } from '../../components/links';
import { Pager } from '../../components/pager';
import { PER_PAGE } from '../../components/list-search';
import { useI18n } from '../../i18n/i18n';
import { useMayManageForm } from './permissions';
import type { ResponsesSearch } from './routes';
import { notify } from '../../components/notify';

type FormResponse = AdminComponents['schemas']['FormResponse'];
const route = getRouteApi('/app/forms/$formUid/responses');

/** The filters as the API takes them: a day's start (from) and end (to) in the member's time zone. */
function filterQuery(search: ResponsesSearch): Record<string, string> {
  return {
    ...(search.status ? { status: search.status } : {}),
    ...(search.from ? { from: new Date(`${search.from}T00:00:00`).toISOString() } : {}),
    ...(search.to ? { to: new Date(`${search.to}T23:59:59.999`).toISOString() } : {}),
  };
}

const answerText = (value: unknown): string => (Array.isArray(value) ? value.join('; ')
  : value && typeof value === 'object' && 'name' in value ? String((value as { name: unknown }).name) : String(value));

/** A form's responses, newest first: filtered by status (spam apart) and dates, marked, deleted, exported as CSV. */
export function ResponsesPage() {
  const { t, formatDate } = useI18n();
  const { formUid } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/forms/$formUid/responses' });
  const queryClient = useQueryClient();
  const mayManage = useMayManageForm();
  const form = api.useQuery('get', '/forms/{form_uid}', { params: { path: { form_uid: formUid } } });
  const filters = filterQuery(search);
  const list = api.useQuery('get', '/forms/{form_uid}/responses', {
    params: { path: { form_uid: formUid }, query: { page: String(search.page ?? 1), per_page: String(PER_PAGE), ...filters } },
  });
  if (form.error) return <ErrorView error={form.error} />;
  const manage = !!form.data && mayManage(form.data.realm_uid);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['get', '/forms/{form_uid}/responses'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/forms/{form_uid}'] });
  };
  const mark = async (response: FormResponse, status: 'spam' | 'received') => {
    try {
      await admin.PUT('/forms/{form_uid}/responses/{id}', { params: { path: { form_uid: formUid, id: response.id } }, body: { status } });
      notify(t('common.saved'));
      await refresh();
    } catch (error) {
      notify(messageOf(error, t), 'red');
    }
  };
  const setSearch = (patch: Partial<ResponsesSearch>) => void navigate({ search: { ...search, ...patch, page: undefined } });
  const csv = `/api/admin/forms/${encodeURIComponent(formUid)}/responses.csv${Object.keys(filters).length ? `?${new URLSearchParams(filters)}` : ''}`;
  const fieldNames = form.data?.fields.map((field) => field.name) ?? [];
  // A file answer downloads the file.
  const fileFields = new Set(form.data?.fields.filter((field) => field.type === 'file').map((field) => field.name));

  const columns: Column<FormResponse>[] = [
    { key: 'submitted_at', label: t('forms.submittedAt'), width: 200, render: (response) => formatDate(response.submitted_at) },
    { key: 'status', label: t('forms.status'), width: 130, render: (response) => (
      <Badge color={response.status === 'spam' ? 'red.9' : 'teal.9'}>{t(response.status === 'spam' ? 'forms.statusSpam' : 'forms.statusReceived')}</Badge>
    ) },
    ...(search.status === 'spam' ? [{ key: 'spam_reason', label: t('forms.spamReason'), width: 160, text: (response: FormResponse) => response.spam_reason ?? '', render: (response: FormResponse) => response.spam_reason ?? '' }] : []),
    { key: 'email', label: t('forms.email'), text: (response) => response.email ?? '', render: (response) => response.email ?? '' },
    { key: 'answers', label: t('forms.answers'), render: (response) => (
      <Stack gap={0}>
        {fieldNames.filter((name) => name in response.answers).map((name) => (
          <Text key={name} size="sm">{name}: {fileFields.has(name)
            ? <Anchor href={`/api/admin/forms/${encodeURIComponent(formUid)}/responses/${response.id}/files/${encodeURIComponent(name)}`}>{answerText(response.answers[name])}</Anchor>
            : answerText(response.answers[name])}</Text>
        ))}
      </Stack>
    ) },
    ...(manage ? [{ key: 'actions', label: t('common.actions'), render: (response: FormResponse) => (
      <Group gap="xs" wrap="nowrap">
        <Button size="xs" variant="default" onClick={() => void mark(response, response.status === 'spam' ? 'received' : 'spam')}>
          {t(response.status === 'spam' ? 'forms.markNotSpam' : 'forms.markSpam')}
        </Button>
        <Button size="xs" variant="default" onClick={() => confirmDelete(t, formatDate(response.submitted_at), async () => {
          await admin.DELETE('/forms/{form_uid}/responses/{id}', { params: { path: { form_uid: formUid, id: response.id } } });
          notify(t('common.deleted'));
          await refresh();
        })}>{t('common.delete')}</Button>
      </Group>
    ) }] : []),
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{t('forms.responsesOf', { name: form.data?.name ?? formUid })}</Title>
        <Group>
          <AnchorLink to="/forms/$formUid" params={{ formUid }}>{t('forms.backToForm')}</AnchorLink>
          <Anchor href={csv} download={`${formUid}-responses.csv`}>{t('forms.exportCsv')}</Anchor>
        </Group>
      </Group>
      <Group align="flex-end">
        <Select label={t('forms.status')} allowDeselect={false} w={180} value={search.status ?? ''}
          data={[{ value: '', label: t('forms.statusAll') }, { value: 'received', label: t('forms.statusReceived') }, { value: 'spam', label: t('forms.statusSpam') }]}
          onChange={(status) => setSearch({ status: status === 'received' || status === 'spam' ? status : undefined })} />
        <TextInput type="date" label={t('forms.from')} value={search.from ?? ''} onChange={(e) => setSearch({ from: e.currentTarget.value || undefined })} />
        <TextInput type="date" label={t('forms.to')} value={search.to ?? ''} onChange={(e) => setSearch({ to: e.currentTarget.value || undefined })} />
      </Group>
      {list.error ? <ErrorView error={list.error} /> : list.data && list.data.responses.length === 0 ? <Text>{t('forms.noResponses')}</Text> : (
        <DataTable columns={columns} items={list.data?.responses ?? []} rowKey={(response) => response.id} busy={list.isLoading} striped={false} />
      )}
      <Pager meta={list.data?.meta} onPage={(page) => void navigate({ search: { ...search, page } })} />
    </Stack>
  );
}
