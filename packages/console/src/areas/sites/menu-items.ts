import type { AdminComponents } from '@atrium/client';

export type MenuItem = AdminComponents['schemas']['SiteMenuItem'];

/** A menu item as the editor holds it: one row of a flat list, nested by its depth. */
export interface ItemRow {
  key: string; depth: number; labels: Record<string, string>;
  target: 'page' | 'url' | 'entry'; page_id: string; url: string; entry: Pick<MenuItem, 'space_uid' | 'type_uid' | 'entry_uuid'>;
  broken: boolean;
}

let nextKey = 0;
export const newRow = (depth = 0): ItemRow => ({
  key: `i${++nextKey}`, depth, labels: {}, target: 'page', page_id: '', url: '', entry: {}, broken: false,
});

/** The items of a menu as rows, parents before their children. */
export function flatten(items: MenuItem[], depth = 0): ItemRow[] {
  return items.flatMap((item) => [{
    ...newRow(depth), labels: { ...item.labels },
    target: item.page_id !== undefined ? 'page' as const : item.url !== undefined ? 'url' as const : 'entry' as const,
    page_id: item.page_id !== undefined ? String(item.page_id) : '', url: item.url ?? '', broken: item.broken === true,
    entry: { space_uid: item.space_uid, type_uid: item.type_uid, entry_uuid: item.entry_uuid },
  }, ...flatten(item.children ?? [], depth + 1)]);
}

const itemOf = (row: ItemRow): MenuItem => ({
  labels: Object.fromEntries(Object.entries(row.labels).filter(([, label]) => label.trim() !== '')),
  ...(row.target === 'page' ? { page_id: Number(row.page_id) } : row.target === 'url' ? { url: row.url } : row.entry),
});

/** The rows back as nested items: a row's parent is the nearest row above it one level up. */
export function nest(rows: ItemRow[]): MenuItem[] {
  const root: MenuItem[] = [];
  const open: MenuItem[][] = [root];
  for (const row of rows) {
    const depth = Math.min(row.depth, open.length - 1);
    const item = itemOf(row);
    open[depth]!.push(item);
    open.length = depth + 1;
    item.children = [];
    open.push(item.children);
  }
  const prune = (items: MenuItem[]): MenuItem[] => items.map(({ children, ...item }) => (children?.length ? { ...item, children: prune(children) } : item));
  return prune(root);
}

/** Indent (one level deeper, under the row above) or outdent a row with the rows nested under it. */
export function shifted(rows: ItemRow[], index: number, by: -1 | 1): ItemRow[] {
  const row = rows[index]!;
  if (by === 1 && (index === 0 || rows[index - 1]!.depth < row.depth)) return rows;
  if (by === -1 && row.depth === 0) return rows;
  let end = index + 1;
  while (end < rows.length && rows[end]!.depth > row.depth) end++;
  return rows.map((other, i) => (i >= index && i < end ? { ...other, depth: other.depth + by } : other));
}
