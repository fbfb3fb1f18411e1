import { useEffect, useState, type ReactNode } from 'react';
import { Group, Stack, Table, Text, TextInput, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Meta } from '@atrium/client';
import { useI18n } from '../i18n/i18n';
import { ErrorView } from './error-view';
import { Pager } from './pager';
import type { ListSearch } from './list-search';

export interface Column<Item> {
  key: string;
  label: string;
  /** Sent as `sort_by` when the header is clicked. */
  sortable?: boolean;
  render(item: Item): ReactNode;
}

interface ListPageProps<Item> {
  title: string;
  columns: Column<Item>[];
  rowKey(item: Item): string | number;
  items: Item[] | undefined;
  meta: Meta | undefined;
  loading: boolean;
  error: unknown;
  search: ListSearch;
  /** Writes the next state into the URL (page, q, sort). */
  onSearch(next: ListSearch): void;
  /** Buttons beside the title (create...). */
  actions?: ReactNode;
  /** Controls above the table for the screen's own filters. */
  filters?: ReactNode;
  /** Set false on lists the server cannot search. */
  searchable?: boolean;
}

/** A server-paginated, sorted and searched table whose state lives in the URL. */
export function ListPage<Item>(props: ListPageProps<Item>) {
  const { t } = useI18n();
  const { search, onSearch } = props;
  const [text, setText] = useState(search.q ?? '');
  const [debounced] = useDebouncedValue(text, 300);
  useEffect(() => {
    if ((search.q ?? '') !== debounced) onSearch({ ...search, q: debounced || undefined, page: undefined });
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const sortBy = (key: string) => {
    const order = search.sort_by === key && search.sort_order !== 'desc' ? 'desc' : 'asc';
    onSearch({ ...search, sort_by: key, sort_order: order, page: undefined });
  };

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{props.title}</Title>
        <Group>{props.actions}</Group>
      </Group>
      <Group align="flex-end" wrap="wrap">
        {props.searchable !== false && (
          <TextInput
            label={t('common.search')}
            placeholder={t('common.searchPlaceholder')}
            type="search"
            data-list-search
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            w={320}
            maw="100%"
          />
        )}
        {props.filters}
      </Group>
      {props.error ? <ErrorView error={props.error} /> : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped highlightOnHover aria-busy={props.loading}>
            <Table.Thead>
              <Table.Tr>
                {props.columns.map((column) => {
                  const sorted = search.sort_by === column.key ? (search.sort_order === 'desc' ? 'descending' : 'ascending') : undefined;
                  return (
                    <Table.Th key={column.key} aria-sort={sorted ?? (column.sortable ? 'none' : undefined)} scope="col">
                      {column.sortable ? (
                        <UnstyledButton onClick={() => sortBy(column.key)} fw={700}>
                          {column.label}{sorted ? (sorted === 'ascending' ? ' ▲' : ' ▼') : ''}
                          {sorted && <VisuallyHidden>{t(sorted === 'ascending' ? 'common.sortAscending' : 'common.sortDescending')}</VisuallyHidden>}
                        </UnstyledButton>
                      ) : column.label}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.items?.map((item) => (
                <Table.Tr key={props.rowKey(item)}>
                  {props.columns.map((column) => <Table.Td key={column.key} style={{ overflowWrap: 'anywhere' }}>{column.render(item)}</Table.Td>)}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {props.loading && <Text role="status">{t('common.loading')}</Text>}
      {!props.loading && !props.error && props.items?.length === 0 && <Text role="status">{t('common.noResults')}</Text>}
      <Pager meta={props.meta} onPage={(page) => onSearch({ ...search, page: page > 1 ? page : undefined })} />
    </Stack>
  );
}
