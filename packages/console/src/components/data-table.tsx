import { Fragment, type ReactNode } from 'react';
import { Table } from '@mantine/core';

export interface Column<Item> {
  key: string;
  label: string;
  /** Sent as `sort_by` when the header is clicked. */
  sortable?: boolean;
  render(item: Item): ReactNode;
  /** The column's width (pixels or a CSS length); columns without one share what is left. Short columns (yes/no, status, dates, actions) set one so long text never squeezes them. */
  width?: number | string;
  /** The cell's whole text: the cell then shows one line cut with an ellipsis, the whole text kept in the DOM (screen readers read it all) and in its title. */
  text?(item: Item): string;
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

const oneLine = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/** The cell of one item: one truncated line (the whole text in its title) for a column with `text`, else its content wrapping anywhere. */
function cell<Item>(column: Column<Item>, item: Item) {
  if (!column.text) return <Table.Td key={column.key} style={{ overflowWrap: 'anywhere' }}>{column.render(item)}</Table.Td>;
  return <Table.Td key={column.key}><div style={oneLine} title={column.text(item)} data-truncated>{column.render(item)}</div></Table.Td>;
}

/**
 * A striped table of items, one column per `Column`, scrolling sideways on narrow screens. Once a column declares a `width` or `text`
 * the layout is fixed: such a column keeps it and the others share the rest, so a long value never squeezes its neighbours. Long
 * text wraps anywhere, or shows one line with an ellipsis in a column with `text`.
 */
export function DataTable<Item>({ columns, items, rowKey, rowProps, header, busy, minWidth = 560, striped = true }: DataTableProps<Item>) {
  // Fixed as soon as a column declares its width or truncates (one line fits only a column the table sizes); else automatic.
  const fixed = columns.some((column) => column.width !== undefined || column.text);
  // The columns without a width share what the others leave, at least 160 pixels each: below that the table scrolls sideways.
  const widths = columns.reduce((sum, column) => sum + (typeof column.width === 'number' ? column.width : 0), 0);
  const least = fixed ? Math.max(minWidth, widths + 160 * columns.filter((column) => column.width === undefined).length) : minWidth;
  return (
    <Table.ScrollContainer minWidth={least}>
      <Table striped={striped} highlightOnHover={striped} aria-busy={busy} layout={fixed ? 'fixed' : undefined}>
        {fixed && (
          <colgroup>
            {columns.map((column) => <col key={column.key} style={column.width === undefined ? undefined : { width: column.width }} />)}
          </colgroup>
        )}
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => header ? <Fragment key={column.key}>{header(column)}</Fragment> : <Table.Th key={column.key} scope="col">{column.label}</Table.Th>)}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={rowKey(item)} {...rowProps?.(item)}>
              {columns.map((column) => cell(column, item))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
