import { describe, expect, it } from 'vitest';
import { blockBody, blockValues } from '../../packages/console/src/areas/sites/blocks.js';
import { flatten, nest, shifted } from '../../packages/console/src/areas/sites/menu-items.js';
import { placementsFor, withDepth, type LayoutPage } from '../../packages/console/src/areas/sites/page-tree.js';

const page = (id: number, parent_id: number | null, position: number) => ({ id, parent_id, position }) as LayoutPage;
// Tree order: 1 (2, 3), 4, 5.
const PAGES = [page(1, null, 0), page(2, 1, 0), page(3, 1, 5), page(4, null, 1), page(5, null, 2)];

describe('the console\'s page tree moves', () => {
  it('gives each page its depth', () => {
    expect(withDepth(PAGES).map(({ page: p, depth }) => [p.id, depth])).toEqual([[1, 0], [2, 1], [3, 1], [4, 0], [5, 0]]);
  });

  it('moves up and down among siblings, writing only the pages whose place changes', () => {
    expect(placementsFor(PAGES, 4, 'up')).toEqual([{ id: 4, parent_id: null, position: 0 }, { id: 1, parent_id: null, position: 1 }]);
    expect(placementsFor(PAGES, 3, 'up')).toEqual([{ id: 3, parent_id: 1, position: 0 }, { id: 2, parent_id: 1, position: 1 }]);
    expect(placementsFor(PAGES, 1, 'up')).toEqual([]);
    expect(placementsFor(PAGES, 5, 'down')).toEqual([]);
  });

  it('indents under the sibling above (as its last child) and outdents to just after the parent', () => {
    expect(placementsFor(PAGES, 4, 'indent')).toEqual([{ id: 4, parent_id: 1, position: 6 }]);
    expect(placementsFor(PAGES, 2, 'indent')).toEqual([]);
    expect(placementsFor(PAGES, 2, 'outdent')).toEqual([
      { id: 2, parent_id: null, position: 1 }, { id: 4, parent_id: null, position: 2 }, { id: 5, parent_id: null, position: 3 },
    ]);
    expect(placementsFor(PAGES, 1, 'outdent')).toEqual([]);
  });
});

describe('the console\'s menu rows', () => {
  const items = [
    { labels: { en: 'About' }, page_id: 1, children: [{ labels: { en: 'Team', es: 'Equipo' }, url: '/team' }] },
    { labels: { en: 'Shop' }, space_uid: 'shop', type_uid: 'product', entry_uuid: 'u1' },
  ];

  it('nests the rows it flattened back into the same items', () => {
    const rows = flatten(items);
    expect(rows.map((row) => [row.depth, row.target])).toEqual([[0, 'page'], [1, 'url'], [0, 'entry']]);
    expect(nest(rows)).toEqual(items);
  });

  it('indents a row under the one above, with its children, and not deeper than one level below it', () => {
    const rows = flatten(items);
    expect(shifted(rows, 1, 1)).toBe(rows);
    expect(nest(shifted(rows, 2, 1))[0]!.children!.map((child) => child.labels.en)).toEqual(['Team', 'Shop']);
    expect(nest(shifted(rows, 1, -1)).map((item) => item.labels.en)).toEqual(['About', 'Team', 'Shop']);
  });
});

describe('the console\'s blocks', () => {
  it('sends only the fields of the block\'s type', () => {
    const block = { ...blockValues({ type: 'content_list' }), space_uid: 'shop', type_uid: 'product', markdown: { en: 'x' }, source: 'y' };
    expect(blockBody(block)).toEqual({ zone: 'main', type: 'content_list', space_uid: 'shop', type_uid: 'product', limit: 10 });
    expect(blockBody({ ...blockValues({ type: 'rich_text' }), markdown: { en: 'Hi', es: '' } })).toEqual({ zone: 'main', type: 'rich_text', markdown: { en: 'Hi' } });
    const listed = { zone: 'side', type: 'content_list' as const, space_uid: 's', type_uid: 't', filters: { 'fields.category': 'news', tags: 'a=b' }, sort: '-published_at', limit: 5, snippet: 'card' };
    expect(blockBody(blockValues(listed))).toEqual(listed);
  });
});
