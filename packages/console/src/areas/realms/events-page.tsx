import { useEffect, useState } from 'react';
import { Group, Pagination, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { api } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { UserSelect } from '../../components/user-select';
import { useI18n } from '../../i18n/i18n';
import { eventsQuery, type EventsSearch } from './events-search';
import { EventsTable } from './events-table';

const route = getRouteApi('/app/realms/$realmUid/events');
const PER_PAGE = 50;

/** The realm's events log, newest first, with its filters (type, user, dates) and page in the URL. */
export function EventsPage() {
  const { t, formatNumber } = useI18n();
  const { realmUid } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/realms/$realmUid/events' });
  const events = api.useQuery('get', '/customers/{realm_uid}/events', { params: { path: { realm_uid: realmUid }, query: eventsQuery(search, PER_PAGE) } });
  const filter = (next: Partial<EventsSearch>) => void navigate({ search: { ...search, ...next, page: undefined } });
  const [type, setType] = useState(search.type ?? '');
  const [debounced] = useDebouncedValue(type.trim(), 300);
  useEffect(() => {
    if ((search.type ?? '') !== debounced) filter({ type: debounced || undefined });
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  const meta = events.data?.meta;
  // The user filtered on, named by the events found (each carries its user).
  const userLabel = events.data?.events.find((event) => event.user)?.user?.email;

  return (
    <Stack>
      <Title order={2}>{t('realms.events')}</Title>
      <Group align="flex-end" wrap="wrap">
        <TextInput label={t('realms.eventType')} value={type} onChange={(event) => setType(event.currentTarget.value)} />
        <UserSelect realmUid={realmUid} label={t('realms.user')} w={280} value={search.user_id ? String(search.user_id) : null}
          selectedLabel={userLabel} onChange={(id) => filter({ user_id: id ? Number(id) : undefined })} />
        <TextInput label={t('realms.from')} type="date" value={search.from ?? ''} onChange={(event) => filter({ from: event.currentTarget.value || undefined })} />
        <TextInput label={t('realms.to')} type="date" value={search.to ?? ''} onChange={(event) => filter({ to: event.currentTarget.value || undefined })} />
      </Group>
      {events.error ? <ErrorView error={events.error} /> : events.data && <EventsTable events={events.data.events} />}
      {events.isLoading && <Text role="status">{t('common.loading')}</Text>}
      {events.data?.events.length === 0 && <Text role="status">{t('common.noResults')}</Text>}
      {meta && meta.total_pages > 0 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">{t('common.totalEntries', { count: formatNumber(meta.total_entries) })}</Text>
          <Pagination total={meta.total_pages} value={meta.current_page}
            onChange={(page) => void navigate({ search: { ...search, page: page > 1 ? page : undefined } })}
            getControlProps={(control) => ({ 'aria-label': control === 'previous' ? t('common.previous') : control === 'next' ? t('common.next') : control })}
            getItemProps={(page) => ({ 'aria-label': t('common.pageOf', { page, pages: meta.total_pages }) })} />
        </Group>
      )}
    </Stack>
  );
}
