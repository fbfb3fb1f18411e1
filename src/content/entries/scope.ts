import type { Context } from '../../context.js';
import { requireSpace, type Space } from '../spaces.js';
import { requireType, type ContentType } from '../types/types.js';

export type { Space as ContentSpace } from '../spaces.js';

/** The space and content type an entries route names. */
export interface EntryScope {
  space: Space;
  type: ContentType;
}

/** The space and type an entries route names; 404 naming which is missing. */
export async function requireEntryScope(ctx: Context, spaceUid: string, typeUid: string): Promise<EntryScope> {
  const space = await requireSpace(ctx, spaceUid);
  return { space, type: await requireType(ctx, space, typeUid) };
}
