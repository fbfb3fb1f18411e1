import type { Context } from '../../context.js';
import type { Space } from '../spaces.js';
import { requireType, type ContentType } from '../types/types.js';

export type { Space as ContentSpace } from '../spaces.js';

/** The space and content type an entries route names. */
export interface EntryScope {
  space: Space;
  type: ContentType;
}

/** The type an entries route names in its space (the admin catalog loaded the space: 404 `Space` first); 404 when missing. */
export async function requireEntryScope(ctx: Context, space: Space, typeUid: string): Promise<EntryScope> {
  return { space, type: await requireType(ctx, space, typeUid) };
}
