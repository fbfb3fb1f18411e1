import { expect } from 'vitest';
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
}

const bodyOf = (v: Version) => ({
  name: v.name ?? `Entry ${++counter}`, slug: v.slug ?? `entry-${++counter}`, locale: v.locale ?? 'en', fields: v.fields ?? {},
  tags: v.tags ?? [], category: v.category ?? null, private: v.private ?? false, segment_uuids: v.segmentUuids ?? [],
});

/**
 * An entry made through the admin API: its first version created, the others saved as drafts of their
 * locales, then each version whose state is `published` (the default) published. Answers its uuid.
 */
export async function makeEntry(h: Harness, spaceUid: string, typeUid: string, ...given: Version[]): Promise<string> {
  const entries = `/api/admin/content/spaces/${spaceUid}/types/${typeUid}/entries`;
  const created = await h.request({ method: 'POST', url: entries, payload: bodyOf(given[0]) });
  expect(created.statusCode, created.body).toBe(201);
  const uuid = created.json().meta.uuid as string;
  for (const version of given.slice(1)) {
    const saved = await h.request({ method: 'PUT', url: `${entries}/${uuid}`, payload: bodyOf(version) });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  for (const version of given.filter((v) => (v.state ?? 'published') === 'published')) {
    const published = await h.request({ method: 'POST', url: `${entries}/${uuid}/publish`, payload: { locale: version.locale ?? 'en' } });
    expect(published.statusCode, published.body).toBe(200);
  }
  return uuid;
}

/** Saves a draft of an entry's locale through the admin API. */
export async function saveDraft(h: Harness, spaceUid: string, typeUid: string, uuid: string, change: Record<string, unknown>): Promise<void> {
  const saved = await h.request({ method: 'PUT', url: `/api/admin/content/spaces/${spaceUid}/types/${typeUid}/entries/${uuid}`, payload: change });
  expect(saved.statusCode, saved.body).toBe(200);
}

/** Publishes an entry (every locale) through the admin API. */
export async function publish(h: Harness, spaceUid: string, typeUid: string, uuid: string): Promise<void> {
  const res = await h.request({ method: 'POST', url: `/api/admin/content/spaces/${spaceUid}/types/${typeUid}/entries/${uuid}/publish` });
  expect(res.statusCode, res.body).toBe(200);
}
