import type { AdminComponents } from '@atrium/client';

export type LayoutPage = AdminComponents['schemas']['LayoutPage'];
export type TreeMove = 'up' | 'down' | 'indent' | 'outdent';
/** One write a move needs: where a page goes (PUT parent_id and position). */
export interface Placement { id: number; parent_id: number | null; position: number }

/** Pages in tree order (as the API lists them) with their depth: 0 for a top-level page. */
export function withDepth(pages: LayoutPage[]): { page: LayoutPage; depth: number }[] {
  const depths = new Map<number, number>();
  return pages.map((page) => {
    const depth = page.parent_id === null ? 0 : (depths.get(page.parent_id) ?? -1) + 1;
    depths.set(page.id, depth);
    return { page, depth };
  });
}

const childrenOf = (pages: LayoutPage[], parentId: number | null) =>
  pages.filter((page) => page.parent_id === parentId).sort((a, b) => a.position - b.position || a.id - b.id);

/** The placements that put `order` (ids under one parent) at positions 0, 1, 2…, leaving out pages already there. */
function renumber(pages: LayoutPage[], parentId: number | null, order: number[]): Placement[] {
  const byId = new Map(pages.map((page) => [page.id, page]));
  return order.flatMap((id, position) => {
    const page = byId.get(id)!;
    return page.parent_id === parentId && page.position === position ? [] : [{ id, parent_id: parentId, position }];
  });
}

/**
 * The writes that move a page: up or down among its siblings, indent (the last child of the sibling above),
 * outdent (the sibling just after its parent). Empty when the move is not possible (the first page cannot go up).
 */
export function placementsFor(pages: LayoutPage[], id: number, move: TreeMove): Placement[] {
  const page = pages.find((candidate) => candidate.id === id);
  if (!page) return [];
  const siblings = childrenOf(pages, page.parent_id).map((sibling) => sibling.id);
  const at = siblings.indexOf(id);
  if (move === 'up' || move === 'down') {
    const other = move === 'up' ? at - 1 : at + 1;
    if (other < 0 || other >= siblings.length) return [];
    [siblings[at], siblings[other]] = [siblings[other]!, siblings[at]!];
    return renumber(pages, page.parent_id, siblings);
  }
  if (move === 'indent') {
    const above = siblings[at - 1];
    if (above === undefined) return [];
    const last = childrenOf(pages, above).at(-1);
    return [{ id, parent_id: above, position: last ? last.position + 1 : 0 }];
  }
  const parent = pages.find((candidate) => candidate.id === page.parent_id);
  if (!parent) return [];
  const uncles = childrenOf(pages, parent.parent_id).map((uncle) => uncle.id);
  uncles.splice(uncles.indexOf(parent.id) + 1, 0, id);
  // The page moves first (to its place among its parent's siblings), then the siblings after it make room.
  const placements = renumber(pages, parent.parent_id, uncles);
  const own = placements.find((placement) => placement.id === id) ?? { id, parent_id: parent.parent_id, position: uncles.indexOf(id) };
  return [own, ...placements.filter((placement) => placement.id !== id)];
}

/** Whether a move is possible, to disable its button. */
export const canMove = (pages: LayoutPage[], id: number, move: TreeMove) => placementsFor(pages, id, move).length > 0;
