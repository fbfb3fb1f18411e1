import { and, eq, inArray } from 'drizzle-orm';
import type { Context } from '../../context.js';
import type { DeliveryQuery, DeliveryType } from './query.js';
import { servedCondition, type Reader } from './sql.js';
import { deliveredColumns, deliveredView } from './view.js';
import type { EntryBody } from '../entries/view.js';
import { assetBody } from '../assets/assets.js';
import { contentAssets as assets, contentEntries as entries, contentEntryVersions as versions, contentTypes as types, type ContentFieldDefinition } from '../../tables/content.js';

/**
 * `include=1|2`: the entries an answer's `entry`/`entries` fields name, and the assets its `asset`
 * fields name, embedded in place of their uuids, down to that depth. One query per level reads every
 * entry the level names (in the answer's locale rules, visible to the same reader, of the same space);
 * one more reads every asset of every level. A reference that cannot be shown (not published, private,
 * gone, of another space) stays as stored, `{"uuid"}`, and so does every reference past the depth.
 */

type View = EntryBody;
type Found = { view: View; fields: ContentFieldDefinition[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REFERENCE_TYPES = new Set(['entry', 'entries', 'asset']);

/** The uuid of a stored reference `{"uuid": "..."}`, or null. */
function uuidOf(reference: unknown): string | null {
  const uuid = (reference as { uuid?: unknown } | null)?.uuid;
  return typeof reference === 'object' && typeof uuid === 'string' && UUID.test(uuid) ? uuid.toLowerCase() : null;
}

/** The uuids a value of a reference field holds (an `entries` field: an array of references). */
function uuidsIn(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).map(uuidOf).filter((uuid) => uuid !== null);
}

function referencesOf(found: Found[], kind: 'entries' | 'assets'): Set<string> {
  const uuids = new Set<string>();
  for (const { view, fields } of found) {
    for (const field of fields) {
      if ((kind === 'assets') !== (field.type === 'asset') || !REFERENCE_TYPES.has(field.type)) continue;
      for (const uuid of uuidsIn(view.fields[field.name])) uuids.add(uuid);
    }
  }
  return uuids;
}

async function readEntries(ctx: Context, uuids: string[], type: DeliveryType, query: DeliveryQuery, reader: Reader): Promise<Found[]> {
  if (!uuids.length) return [];
  const rows = await ctx.db.select({ ...deliveredColumns, typeUid: types.uid, typeFields: types.fields })
    .from(versions).innerJoin(entries, eq(entries.id, versions.entryId)).innerJoin(types, eq(types.id, versions.typeId))
    .where(and(eq(entries.spaceId, type.spaceId), inArray(entries.uuid, uuids), servedCondition(null, query, reader, ctx.clock.now())));
  return rows.map((row) => ({ view: deliveredView(row, type.spaceUid, row.typeUid, row.typeFields), fields: row.typeFields }));
}

async function readAssets(ctx: Context, uuids: string[], type: DeliveryType): Promise<Map<string, object>> {
  if (!uuids.length) return new Map();
  const rows = await ctx.db.select().from(assets).where(and(eq(assets.spaceId, type.spaceId), inArray(assets.uuid, uuids)));
  return new Map(rows.map((asset) => [asset.uuid, assetBody(ctx, type.spaceUid, asset)]));
}

export async function embedReferences(ctx: Context, views: object[], type: DeliveryType, query: DeliveryQuery, reader: Reader): Promise<object[]> {
  const top: Found[] = views.map((view) => ({ view: view as View, fields: type.fields }));
  const known = new Map<string, Found>();
  // The entries whose references are embedded: those above the last level.
  const expanded = [...top];
  let level = top;
  for (let depth = 1; depth <= query.include; depth++) {
    const wanted = [...referencesOf(level, 'entries')].filter((uuid) => !known.has(uuid));
    level = await readEntries(ctx, wanted, type, query, reader);
    for (const found of level) known.set(found.view.meta.uuid, found);
    if (depth < query.include) expanded.push(...level);
  }
  const assetsFound = await readAssets(ctx, [...referencesOf(expanded, 'assets')], type);

  const embed = (found: Found, depthLeft: number): View => {
    if (depthLeft <= 0) return found.view;
    const fields: Record<string, unknown> = { ...found.view.fields };
    for (const field of found.fields) {
      if (!REFERENCE_TYPES.has(field.type) || !Object.hasOwn(fields, field.name)) continue;
      const resolve = (reference: unknown) => {
        const uuid = uuidOf(reference);
        if (uuid === null) return reference;
        if (field.type === 'asset') return assetsFound.get(uuid) ?? reference;
        const target = known.get(uuid);
        return target ? embed(target, depthLeft - 1) : reference;
      };
      const value = fields[field.name];
      fields[field.name] = field.type === 'entries' && Array.isArray(value) ? value.map(resolve) : resolve(value);
    }
    return { ...found.view, fields };
  };
  return top.map((found) => embed(found, query.include));
}
