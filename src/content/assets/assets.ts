import { and, desc, eq } from 'drizzle-orm';
import type { ActingContext } from '../../admin-auth/principal.js';
import type { Context } from '../../context.js';
import { textSearch } from '../../db/like.js';
import { totalCount, totalOf, type Page } from '../../db/paging.js';
import { orderOf } from '../../db/sorting.js';
import { invalidField, notFound } from '../../errors/index.js';
import { discardFile, type ReceivedFile } from '../../uploads/attachments.js';
import { extensionOf, isImage, missingFile, refuseFile } from '../../storage/checks.js';
import { removeAfterCommit, type StoredObject } from '../../storage/storage.js';
import type { AssetBody } from './schema.js';
import type { Space } from '../spaces.js';
import { contentAssets } from '../../tables/content.js';

export type ContentAsset = typeof contentAssets.$inferSelect;

/** Where an asset's content is kept in the storage. */
export const ASSET_FOLDER = 'content-assets';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TITLE_MAX = 255;

/** The public address of an asset: the content API, with the file's name last so that a download keeps it. */
export const assetUrl = (ctx: Context, spaceUid: string, asset: Pick<ContentAsset, 'uuid' | 'fileName'>) =>
  `${ctx.config.baseUrl}/api/content/spaces/${encodeURIComponent(spaceUid)}/assets/${asset.uuid}/${encodeURIComponent(asset.fileName)}`;

export function assetBody(ctx: Context, spaceUid: string, asset: ContentAsset): AssetBody {
  return {
    uuid: asset.uuid,
    space: spaceUid,
    file_name: asset.fileName,
    content_type: asset.contentType,
    size: asset.size,
    title: asset.title,
    url: assetUrl(ctx, spaceUid, asset),
    created_at: asset.createdAt.toISOString(),
    updated_at: asset.updatedAt.toISOString(),
  };
}

/**
 * Records a received file as an asset of the space. A missing or refused file answers 422 (`{"errors"}`,
 * one text per reason, each starting with the file name); the stored object is removed whenever the
 * record is not made, a refusal of the actor included.
 */
export async function createAsset(ctx: ActingContext, space: Space, file: ReceivedFile | undefined, title: string | undefined): Promise<AssetBody> {
  try {
    ctx.actor.assertHolds('content.write', space.uid);
    if (!file) throw missingFile();
    if (file.reasons.length) refuseFile(file.reasons);
    const text = title?.trim() || null;
    if (text && text.length > TITLE_MAX) throw invalidField('title', `is too long (maximum is ${TITLE_MAX} characters)`);
    // A form's plain fields are not seen by the NUL guard of JSON bodies.
    if (text?.includes('\u0000')) throw invalidField('title', 'must not contain a NUL character');
    const now = ctx.clock.now();
    const [asset] = await ctx.db.insert(contentAssets).values({
      uuid: file.uuid, spaceId: space.id, fileName: file.name, contentType: file.contentType, size: file.size,
      storageKey: file.key, title: text, createdAt: now, updatedAt: now,
    }).returning();
    return assetBody(ctx, space.uid, asset);
  } catch (err) {
    if (file) await discardFile(ctx, file);
    throw err;
  }
}

const SORTABLE = { file_name: contentAssets.fileName, size: contentAssets.size, created_at: contentAssets.createdAt, updated_at: contentAssets.updatedAt };

export async function listAssets(ctx: ActingContext, space: Space, page: Page, query: { query?: string; sort_by?: string; order?: string }) {
  ctx.actor.assertHolds('content.read', space.uid);
  const where = and(eq(contentAssets.spaceId, space.id), textSearch(query.query, [contentAssets.fileName]));
  const rows = await ctx.db.select({ asset: contentAssets, total: totalCount }).from(contentAssets).where(where)
    .orderBy(orderOf(SORTABLE, query, contentAssets.updatedAt, 'desc'), desc(contentAssets.id)).limit(page.perPage).offset(page.offset);
  return { items: rows.map((row) => assetBody(ctx, space.uid, row.asset)), total: await totalOf(rows, page, ctx.db, contentAssets, where) };
}

async function findAsset(ctx: Context, space: Space, uuid: string): Promise<ContentAsset | undefined> {
  if (!UUID.test(uuid)) return undefined;
  const [asset] = await ctx.db.select().from(contentAssets).where(and(eq(contentAssets.uuid, uuid.toLowerCase()), eq(contentAssets.spaceId, space.id)));
  return asset;
}

export async function showAsset(ctx: ActingContext, space: Space, uuid: string): Promise<AssetBody> {
  ctx.actor.assertHolds('content.read', space.uid);
  const asset = await findAsset(ctx, space, uuid);
  if (!asset) throw notFound('Asset');
  return assetBody(ctx, space.uid, asset);
}

/**
 * Deletes the asset and, at once, its file: its URL stops answering. Entries that refer to it keep the
 * reference, which the content API can no longer resolve.
 */
export async function deleteAsset(ctx: ActingContext, space: Space, uuid: string): Promise<void> {
  ctx.actor.assertHolds('content.write', space.uid);
  const [row] = UUID.test(uuid)
    ? await ctx.db.delete(contentAssets).where(and(eq(contentAssets.uuid, uuid.toLowerCase()), eq(contentAssets.spaceId, space.id)))
      .returning({ storageKey: contentAssets.storageKey })
    : [];
  if (!row) throw notFound('Asset');
  // Content API answers embed assets (include): read them again now.
  ctx.caches.changed('content');
  await removeAfterCommit(ctx.storage, ctx.log, [row.storageKey]);
}

export interface AssetFile {
  asset: ContentAsset;
  object: StoredObject;
  /** Images are shown in the browser; every other file is downloaded. */
  inline: boolean;
}

/** The file at an asset's public URL: the space's asset with this uuid and this exact file name; null otherwise. */
export async function readAssetFile(ctx: Context, space: Space, uuid: string, fileName: string): Promise<AssetFile | null> {
  const asset = await findAsset(ctx, space, uuid);
  if (!asset || asset.fileName !== fileName) return null;
  const object = await ctx.storage.get(asset.storageKey);
  return object && { asset, object, inline: isImage(extensionOf(asset.fileName)) };
}
