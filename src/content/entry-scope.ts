import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { notFound } from '../http/errors.js';
import { contentSpaces, contentTypes } from './tables.js';

export type ContentSpace = typeof contentSpaces.$inferSelect;
export type ContentType = typeof contentTypes.$inferSelect;

/** The space and content type an entries route names. */
export interface EntryScope {
  space: ContentSpace;
  type: ContentType;
}

/** The space a route names; 404 when there is none. */
export async function requireSpaceByUid(ctx: Context, uid: string): Promise<ContentSpace> {
  const [space] = await ctx.db.select().from(contentSpaces).where(eq(contentSpaces.uid, uid));
  if (!space) throw notFound('Space');
  return space;
}

/** The space and type an entries route names, in one query; 404 naming which is missing. */
export async function requireEntryScope(ctx: Context, spaceUid: string, typeUid: string): Promise<EntryScope> {
  const [row] = await ctx.db.select({ space: contentSpaces, type: contentTypes }).from(contentSpaces)
    .leftJoin(contentTypes, and(eq(contentTypes.spaceId, contentSpaces.id), eq(contentTypes.uid, typeUid)))
    .where(eq(contentSpaces.uid, spaceUid));
  if (!row) throw notFound('Space');
  if (!row.type) throw notFound('Content type');
  return { space: row.space, type: row.type };
}
