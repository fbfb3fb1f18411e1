import { useEffect, useState, type ReactNode } from 'react';
import { Group, Stack, Table, Text, TextInput, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Meta } from '@atrium/client';
import { useI18n } from '../i18n/i18n';
import { DataTable, type Column } from './data-table';
import { ErrorView } from './error-view';
import { Pager } from './pager';
import type { ListSearch } from './list-search';

export type { Column } from './data-table';

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
  /** 2 for a list that is a section of a detail screen (default 1: the screen's own title). */
  headingLevel?: 1 | 2;
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
        <Title order={props.headingLevel ?? 1}>{props.title}</Title>
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
        <DataTable
          columns={props.columns} items={props.items ?? []} rowKey={props.rowKey} busy={props.loading} minWidth={600}
          header={(column) => {
            const sorted = search.sort_by === column.key ? (search.sort_order === 'desc' ? 'descending' : 'ascending') : undefined;
            return (
              <Table.Th aria-sort={sorted ?? (column.sortable ? 'none' : undefined)} scope="col">
                {column.sortable ? (
                  <UnstyledButton onClick={() => sortBy(column.key)} fw={700}>
                    {column.label}{sorted ? (sorted === 'ascending' ? ' ▲' : ' ▼') : ''}
                    {sorted && <VisuallyHidden>{t(sorted === 'ascending' ? 'common.sortAscending' : 'common.sortDescending')}</VisuallyHidden>}
                  </UnstyledButton>
                ) : column.label}
              </Table.Th>
            );
          }}
        />
      )}
      {props.loading && <Text role="status">{t('common.loading')}</Text>}
      {!props.loading && !props.error && props.items?.length === 0 && <Text role="status">{t('common.noResults')}</Text>}
      <Pager meta={props.meta} onPage={(page) => onSearch({ ...search, page: page > 1 ? page : undefined })} />
    </Stack>
  );
}
