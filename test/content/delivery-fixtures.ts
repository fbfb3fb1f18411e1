import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { contentChanged } from '../../src/content/delivery.js';
import { and, eq } from 'drizzle-orm';
import { contentEntries, contentEntryVersions, contentSpaces, contentTypes } from '../../src/content/tables.js';
import type { Harness } from '../helpers/harness.js';

let counter = 0;

/** A space (en, es, fr; default en) and a type with fields of every comparable kind, through the admin API. */
export async function makeSpaceAndType(h: Harness) {
  const space = `space-${++counter}-${Date.now().toString(36)}`;
  const created = await h.request({ method: 'POST', url: '/api/admin/content/spaces', payload: { uid: space, name: 'Shop', default_locale: 'en', locales: ['en', 'es', 'fr'] } });
  expect(created.statusCode, created.body).toBe(201);
  const fields = [
    { name: 'title', type: 'text', sortable: true, localized: true },
    { name: 'price', type: 'decimal', sortable: true },
    { name: 'stock', type: 'integer', sortable: true },
    { name: 'active', type: 'boolean', sortable: true },
    { name: 'launch', type: 'date', sortable: true },
    { name: 'colour', type: 'dropdown', options: ['red', 'green', 'blue'] },
    { name: 'sizes', type: 'checkbox', options: ['s', 'm', 'l'] },
    { name: 'body', type: 'rich_text' },
    { name: 'related', type: 'entry' },
    { name: 'parts', type: 'entries' },
    { name: 'photo', type: 'asset' },
    { name: 'place', type: 'location' },
  ];
  const type = await h.request({ method: 'POST', url: `/api/admin/content/spaces/${space}/types`, payload: { uid: 'product', name: 'Product', fields } });
  expect(type.statusCode, type.body).toBe(201);
  return { space, type: 'product', base: `/api/content/spaces/${space}/types/product/entries` };
}

export interface Version {
  locale?: string;
  state?: 'draft' | 'published';
  name?: string;
  slug?: string;
  fields?: Record<string, unknown>;
  tags?: string[];
  category?: string | null;
  private?: boolean;
  segmentUuids?: string[];
  publishedAt?: Date;
  createdAt?: Date;
  updatedAt?: Date;
}

/**
 * An entry written straight into the tables (one row per version given), as publishing leaves it;
 * answers the entry's uuid. The content cache is emptied as a publish does.
 */
export async function insertEntry(h: Harness, spaceUid: string, typeUid: string, ...given: Version[]): Promise<string> {
  const [ids] = await h.ctx.db.select({ space_id: contentSpaces.id, type_id: contentTypes.id }).from(contentTypes)
    .innerJoin(contentSpaces, eq(contentSpaces.id, contentTypes.spaceId)).where(and(eq(contentSpaces.uid, spaceUid), eq(contentTypes.uid, typeUid)));
  const uuid = randomUUID();
  const now = h.clock.now();
  const [entry] = await h.ctx.db.insert(contentEntries).values({ uuid, spaceId: ids.space_id, typeId: ids.type_id, createdAt: now, updatedAt: now }).returning();
  for (const v of given) {
    const n = ++counter;
    await h.ctx.db.insert(contentEntryVersions).values({
      entryId: entry.id, typeId: ids.type_id, locale: v.locale ?? 'en', state: v.state ?? 'published', name: v.name ?? `Entry ${n}`,
      slug: v.slug ?? `entry-${n}`, fields: v.fields ?? {}, tags: v.tags ?? [], category: v.category ?? null, private: v.private ?? false,
      segmentUuids: v.segmentUuids ?? [], publishedAt: (v.state ?? 'published') === 'published' ? v.publishedAt ?? now : null,
      createdAt: v.createdAt ?? now, updatedAt: v.updatedAt ?? now,
    });
  }
  contentChanged(h.ctx);
  return uuid;
}
