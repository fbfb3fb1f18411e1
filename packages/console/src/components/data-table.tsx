import { Fragment, type ReactNode } from 'react';
import { Table } from '@mantine/core';

export interface Column<Item> {
  key: string;
  label: string;
  /** Sent as `sort_by` when the header is clicked. */
  sortable?: boolean;
  render(item: Item): ReactNode;
}

interface DataTableProps<Item> {
  columns: Column<Item>[];
  items: Item[];
  rowKey(item: Item): string | number;
  /** Attributes of a row (data-* for tests and styling). */
  rowProps?(item: Item): Record<string, string>;
  /** A header cell (a `Table.Th`); one with the column's label by default (a list page puts its sort button in it). */
  header?(column: Column<Item>): ReactNode;
  /** Marks the table aria-busy while its items load. */
  busy?: boolean;
  minWidth?: number;
  /** Off where rows hold red (destructive) buttons, whose text loses its contrast on a striped row. */
  striped?: boolean;
}

/** A striped table of items, one column per `Column`, scrolling sideways on narrow screens; long text wraps anywhere. */
export function DataTable<Item>({ columns, items, rowKey, rowProps, header, busy, minWidth = 560, striped = true }: DataTableProps<Item>) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped={striped} highlightOnHover={striped} aria-busy={busy}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => header ? <Fragment key={column.key}>{header(column)}</Fragment> : <Table.Th key={column.key} scope="col">{column.label}</Table.Th>)}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={rowKey(item)} {...rowProps?.(item)}>
              {columns.map((column) => <Table.Td key={column.key} style={{ overflowWrap: 'anywhere' }}>{column.render(item)}</Table.Td>)}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
