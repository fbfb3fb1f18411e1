import type { AdminComponents } from '@atrium/client';

export type Block = AdminComponents['schemas']['SiteBlock'];
export type BlockType = Block['type'];
export const BLOCK_TYPES: BlockType[] = ['rich_text', 'content_list', 'content_entry', 'menu', 'liquid', 'form'];

/** A block as the editor holds it: every field as text, and a key for React. */
export interface BlockValues {
  key: string; zone: string; type: BlockType; markdown: Record<string, string>;
  space_uid: string; type_uid: string; entry_uuid: string; limit: number | string; sort: string;
  /** A content list's delivery API query parameters, one `name=value` a line. */
  filters: string;
  menu_uid: string; form_uid: string; snippet: string; source: string;
}

let nextKey = 0;
export const blockValues = (block: Partial<Block> & { type: BlockType }): BlockValues => ({
  key: `b${++nextKey}`, zone: block.zone ?? 'main', type: block.type, markdown: { ...(block.markdown ?? {}) },
  space_uid: block.space_uid ?? '', type_uid: block.type_uid ?? '', entry_uuid: block.entry_uuid ?? '', limit: block.limit ?? 10,
  sort: block.sort ?? '', filters: Object.entries(block.filters ?? {}).map(([name, value]) => `${name}=${value}`).join('\n'), menu_uid: block.menu_uid ?? '', form_uid: block.form_uid ?? '', snippet: block.snippet ?? '', source: block.source ?? '',
});

const present = (values: Record<string, string | number | undefined>) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '' && value !== undefined));

/** The block as the API takes it: only the fields of its type, empty ones left out. */
export function blockBody(block: BlockValues): Block {
  const head = { zone: block.zone.trim() || 'main', type: block.type };
  switch (block.type) {
    case 'rich_text': return { ...head, markdown: Object.fromEntries(Object.entries(block.markdown).filter(([, text]) => text !== '')) };
    case 'content_list': {
      const filters = filtersOf(block.filters);
      return {
        ...head, ...present({ space_uid: block.space_uid, type_uid: block.type_uid, sort: block.sort, snippet: block.snippet }),
        ...(Object.keys(filters).length ? { filters } : {}), limit: Number(block.limit) || 10,
      };
    }
    case 'content_entry': return { ...head, ...present({ space_uid: block.space_uid, type_uid: block.type_uid, entry_uuid: block.entry_uuid, snippet: block.snippet }) };
    case 'menu': return { ...head, ...present({ menu_uid: block.menu_uid, snippet: block.snippet }) };
    case 'liquid': return { ...head, source: block.source };
    case 'form': return { ...head, ...present({ form_uid: block.form_uid, snippet: block.snippet }) };
  }
}

/** `name=value` lines as query parameters; a line without `=` is left out. */
export function filtersOf(text: string): Record<string, string> {
  return Object.fromEntries(text.split('\n').flatMap((line) => {
    const at = line.indexOf('=');
    return at > 0 ? [[line.slice(0, at).trim(), line.slice(at + 1).trim()]] : [];
  }));
}

/** Moves the item at `index` by `by` places (−1 up, +1 down); the list as it was when that is not possible. */
export function moved<Item>(items: Item[], index: number, by: -1 | 1): Item[] {
  const other = index + by;
  if (other < 0 || other >= items.length) return items;
  const next = [...items];
  [next[index], next[other]] = [next[other]!, next[index]!];
  return next;
}
