import { and, eq, inArray } from 'drizzle-orm';
import type { Context } from '../../context.js';
import type { FieldErrors } from '../../errors/index.js';
import { segments } from '../../tables/segments.js';
import { checkFieldValues, checkReferences } from './fields.js';
import type { EntryScope } from './scope.js';
import type { EntryInputBody } from './schema.js';

/** The attributes of an entry a request sets, checked: only those it sent (PUT is partial). */
export interface EntryChanges {
  name?: string;
  slug?: string;
  fields: Record<string, unknown>;
  tags?: string[];
  category?: string | null;
  private?: boolean;
  segmentUuids?: string[];
}

export const NAME_MAX = 255;
const SLUG = /^[a-z0-9][a-z0-9_-]{0,199}$/;
const CATEGORY = /^[\p{L}\p{N}_-]+(?:\/[\p{L}\p{N}_-]+)*$/u;
const CATEGORY_MAX = 255;
const TAG_MAX = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A slug made from a name: `Café con leche!` → `cafe-con-leche`. */
export function slugOf(name: string): string {
  const slug = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 200).replace(/-+$/, '');
  return slug || 'entry';
}

function checkName(name: string, errors: FieldErrors): string {
  const text = name.trim();
  if (!text) errors.add('name', "can't be blank");
  else if (text.length > NAME_MAX) errors.add('name', `is too long (maximum is ${NAME_MAX} characters)`);
  return text;
}

function checkSlug(slug: string, errors: FieldErrors): string {
  if (!SLUG.test(slug)) errors.add('slug', 'must be lower-case letters, digits, - and _, starting with a letter or digit, at most 200 characters');
  return slug;
}

function checkTags(tags: string[], errors: FieldErrors): string[] {
  const list = [...new Set(tags.map((tag) => tag.trim()))];
  if (list.some((tag) => !tag)) errors.add('tags', "can't hold a blank tag");
  if (list.some((tag) => tag.length > TAG_MAX)) errors.add('tags', `can't hold a tag longer than ${TAG_MAX} characters`);
  return list;
}

function checkCategory(category: string | null, errors: FieldErrors): string | null {
  const text = category?.trim().replace(/^\/+|\/+$/g, '');
  if (!text) return null;
  if (text.length > CATEGORY_MAX || !CATEGORY.test(text)) {
    errors.add('category', `must be a path of letters, digits, - and _ separated by /, at most ${CATEGORY_MAX} characters`);
  }
  return text;
}

/** The segments named, each checked to exist (temporary ones do not count). */
async function checkSegments(ctx: Context, uuids: string[], errors: FieldErrors): Promise<string[]> {
  const list = [...new Set(uuids.map((uuid) => uuid.toLowerCase()))];
  const malformed = list.filter((uuid) => !UUID.test(uuid));
  if (malformed.length) {
    errors.add('segment_uuids', `must hold segment uuids: ${malformed.slice(0, 5).map((u) => JSON.stringify(u.slice(0, 40))).join(', ')}`);
    return list;
  }
  if (!list.length) return list;
  const rows = await ctx.db.select({ uuid: segments.uuid }).from(segments)
    .where(and(inArray(segments.uuid, list), eq(segments.temporary, false)));
  const found = new Set(rows.map((row) => row.uuid));
  const unknown = list.filter((uuid) => !found.has(uuid));
  if (unknown.length) errors.add('segment_uuids', `names no segment: ${unknown.slice(0, 5).join(', ')}`);
  return list;
}

/**
 * Checks what a request sent, filing every failure in `errors`: names, slug, tags, category, segments and
 * the field values (against the type, references looked up in the space). Required fields and the
 * private-needs-segments rule are checked later, on the draft the change makes.
 */
export async function checkEntryInput(ctx: Context, scope: EntryScope, input: EntryInputBody, errors: FieldErrors): Promise<EntryChanges> {
  const changes: EntryChanges = { fields: {} };
  if (input.name !== undefined) changes.name = checkName(input.name, errors);
  if (input.slug !== undefined) changes.slug = checkSlug(input.slug, errors);
  if (input.tags !== undefined) changes.tags = checkTags(input.tags, errors);
  if (input.category !== undefined) changes.category = checkCategory(input.category, errors);
  if (input.private !== undefined) changes.private = input.private;
  if (input.segment_uuids !== undefined) changes.segmentUuids = await checkSegments(ctx, input.segment_uuids, errors);
  if (input.fields !== undefined) {
    changes.fields = checkFieldValues(input.fields, scope.type.fields, errors);
    await checkReferences(ctx, scope.space.id, changes.fields, scope.type.fields, errors);
  }
  return changes;
}

/** The locale a request names, one of the space's. */
export function checkLocale(locale: string, locales: readonly string[], errors: FieldErrors): string {
  if (!locales.includes(locale)) errors.add('locale', `is not a locale of the space (${locales.join(', ')})`);
  return locale;
}
