import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { ActingContext } from '../../admin-auth/principal.js';
import type { Context } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { textSearch } from '../../db/like.js';
import { totalCount, totalOf, type Page } from '../../db/paging.js';
import { orderOf } from '../../db/sorting.js';
import { uniqueViolation } from '../../db/unique.js';
import { contentTypeChanged, FieldErrors, forbidden, invalidField, notFound } from '../../errors/index.js';
import { dropEntryLocks, holdUnlockedEntry } from './lock.js';
import { completeFields, missingRequired, sharedValues } from './fields.js';
import { checkEntryInput, checkLocale, slugOf, type EntryChanges } from './input.js';
import type { ContentSpace, EntryScope } from './scope.js';
import type { AdminEntryBody, EntryInputBody } from './schema.js';
import { availableLocales, entryView, type EntryVersion, type VersionType } from './view.js';
import { contentEntries, contentEntryVersions, contentTypes } from '../../tables/content.js';

export type ContentEntry = typeof contentEntries.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const versions = contentEntryVersions;

export function adminEntryBody(scope: EntryScope, entry: ContentEntry, version: EntryVersion, locales: string[]): AdminEntryBody {
  const view = entryView({
    uuid: entry.uuid, spaceUid: scope.space.uid, typeUid: scope.type.uid, version, availableLocales: locales, definitions: scope.type.fields,
  });
  return {
    ...view,
    segment_uuids: version.segmentUuids,
    publish_at: entry.publishAt?.toISOString() ?? null,
    unpublish_at: entry.unpublishAt?.toISOString() ?? null,
  };
}

/** The entry of the type with this uuid; 404 when there is none. */
export async function requireEntry(ctx: Context, scope: EntryScope, uuid: string): Promise<ContentEntry> {
  const [entry] = UUID.test(uuid)
    ? await ctx.db.select().from(contentEntries).where(and(eq(contentEntries.uuid, uuid.toLowerCase()), eq(contentEntries.typeId, scope.type.id)))
    : [];
  if (!entry) throw notFound('Entry');
  return entry;
}

/** The locale meant when a request names none: the space's default one when the entry has it, else the entry's first. */
export function preferredLocale(space: ContentSpace, locales: string[]): string {
  return locales.includes(space.defaultLocale) ? space.defaultLocale : [...locales].sort()[0] ?? space.defaultLocale;
}

async function localesOf(db: Db, entryId: number, state: VersionType): Promise<string[]> {
  const rows = await db.select({ locale: versions.locale }).from(versions).where(and(eq(versions.entryId, entryId), eq(versions.state, state)));
  return rows.map((row) => row.locale);
}

/** One version of the entry with its available locales, as the administration sees it; 404 when there is none. */
export async function showVersion(ctx: Context, scope: EntryScope, entry: ContentEntry, locale: string | undefined, state: VersionType): Promise<AdminEntryBody> {
  const wanted = locale ?? preferredLocale(scope.space, await localesOf(ctx.db, entry.id, state));
  const [row] = await ctx.db.select({ version: versions, locales: availableLocales }).from(versions)
    .where(and(eq(versions.entryId, entry.id), eq(versions.locale, wanted), eq(versions.state, state)));
  if (!row) throw notFound(state === 'draft' ? `Draft in ${wanted.slice(0, 20)}` : `Published version in ${wanted.slice(0, 20)}`);
  return adminEntryBody(scope, entry, row.version, row.locales);
}

export async function showEntry(ctx: ActingContext, scope: EntryScope, uuid: string, query: { locale?: string; version?: VersionType }): Promise<AdminEntryBody> {
  ctx.actor.assertHolds('content.read', scope.space.uid);
  return showVersion(ctx, scope, await requireEntry(ctx, scope, uuid), query.locale, query.version ?? 'draft');
}

export interface EntryListQuery {
  locale?: string;
  version?: VersionType;
  query?: string;
  sort_by?: string;
  order?: string;
}

const SORTABLE = { name: versions.name, slug: versions.slug, created_at: versions.createdAt, updated_at: versions.updatedAt, published_at: versions.publishedAt };

/** The versions of the type's entries in one state (drafts by default), one item per locale unless `locale` narrows it. */
export async function listEntries(ctx: ActingContext, scope: EntryScope, page: Page, query: EntryListQuery): Promise<{ items: AdminEntryBody[]; total: number }> {
  ctx.actor.assertHolds('content.read', scope.space.uid);
  const where = and(
    eq(versions.typeId, scope.type.id),
    eq(versions.state, query.version ?? 'draft'),
    query.locale !== undefined ? eq(versions.locale, query.locale) : undefined,
    textSearch(query.query, [versions.name, versions.slug]),
  );
  const rows = await ctx.db.select({ version: versions, entry: contentEntries, locales: availableLocales, total: totalCount })
    .from(versions).innerJoin(contentEntries, eq(contentEntries.id, versions.entryId)).where(where)
    .orderBy(orderOf(SORTABLE, query, versions.updatedAt, 'desc'), desc(versions.id)).limit(page.perPage).offset(page.offset);
  return {
    items: rows.map((row) => adminEntryBody(scope, row.entry, row.version, row.locales)),
    total: await totalOf(rows, page, ctx.db, versions, where),
  };
}

type DraftValues = Pick<EntryVersion, 'name' | 'slug' | 'fields' | 'tags' | 'category' | 'private' | 'segmentUuids'>;

/** A draft made of `base` (the locale's draft, or another locale's for a new one) and the changes; 422 when it breaks a rule. */
function draftOf(scope: EntryScope, base: DraftValues | undefined, changes: EntryChanges): DraftValues {
  const errors = new FieldErrors();
  const definitions = scope.type.fields;
  const name = changes.name ?? base?.name ?? '';
  if (!name) errors.add('name', "can't be blank");
  const fields = completeFields({ ...base?.fields, ...changes.fields }, definitions);
  for (const missing of missingRequired(fields, definitions)) errors.add(`fields.${missing}`, "can't be blank");
  const isPrivate = changes.private ?? base?.private ?? false;
  const segmentUuids = changes.segmentUuids ?? base?.segmentUuids ?? [];
  if (isPrivate && !segmentUuids.length) errors.add('segment_uuids', "can't be blank when the entry is private");
  errors.throwIfAny();
  return {
    name,
    slug: changes.slug ?? base?.slug ?? slugOf(name),
    fields,
    tags: changes.tags ?? base?.tags ?? [],
    category: changes.category !== undefined ? changes.category : base?.category ?? null,
    private: isPrivate,
    segmentUuids,
  };
}

/** A version's fields with `values` written over them, in SQL. */
export const withValues = (values: Record<string, unknown>): SQL => sql`${versions.fields} || ${JSON.stringify(values)}::jsonb`;

/** A write that ran into another version's slug: 422, as every unique collision of the admin API. */
function slugTaken(err: unknown): unknown {
  return uniqueViolation(err) === 'content_entry_versions_slug_key'
    ? invalidField('slug', 'has already been taken in this type and locale') : err;
}

/**
 * Holds the type's row while an entry is written in `tx`: a change of the type (which checks the
 * entries under FOR UPDATE) waits for the write, and a write checked against fields that changed
 * meanwhile is refused rather than stored against the old definition.
 */
async function holdType(tx: Pick<Db, 'select'>, scope: EntryScope): Promise<void> {
  const [row] = await tx.select({ fields: contentTypes.fields }).from(contentTypes).where(eq(contentTypes.id, scope.type.id)).for('share');
  if (!row) throw notFound('Content type');
  if (JSON.stringify(row.fields) !== JSON.stringify(scope.type.fields)) throw contentTypeChanged();
}

/** POST: a new entry with its first draft, in `locale` (default: the space's default locale). */
export async function createEntry(ctx: ActingContext, scope: EntryScope, input: EntryInputBody): Promise<AdminEntryBody> {
  ctx.actor.assertHolds('content.write', scope.space.uid);
  const errors = new FieldErrors();
  if (input.name === undefined) errors.add('name', "can't be blank");
  const locale = checkLocale(input.locale ?? scope.space.defaultLocale, scope.space.locales, errors);
  const changes = await checkEntryInput(ctx, scope, input, errors);
  errors.throwIfAny();
  const draft = draftOf(scope, undefined, changes);
  const now = ctx.clock.now();
  const { entry, version } = await ctx.db.transaction(async (tx) => {
    await holdType(tx, scope);
    const [entry] = await tx.insert(contentEntries).values({ spaceId: scope.space.id, typeId: scope.type.id, createdAt: now, updatedAt: now }).returning();
    const [version] = await tx.insert(versions).values({
      ...draft, entryId: entry.id, typeId: scope.type.id, locale, state: 'draft', createdAt: now, updatedAt: now,
    }).returning();
    return { entry, version };
  }).catch((err) => { throw slugTaken(err); });
  return adminEntryBody(scope, entry, version, [locale]);
}

/**
 * PUT: saves the draft of one locale, partially; a locale the entry has no draft in gets one (a new
 * locale version). Values of fields that are not localized, and the private flag with its segments,
 * are written to every locale's draft. The entry's row is locked, so saves of one entry take turns.
 */
export async function saveDraft(ctx: ActingContext, scope: EntryScope, uuid: string, input: EntryInputBody, lockOverride = false): Promise<AdminEntryBody> {
  ctx.actor.assertHolds('content.write', scope.space.uid);
  const entry = await requireEntry(ctx, scope, uuid);
  const errors = new FieldErrors();
  if (input.locale !== undefined) checkLocale(input.locale, scope.space.locales, errors);
  const changes = await checkEntryInput(ctx, scope, input, errors);
  errors.throwIfAny();
  const now = ctx.clock.now();
  const locale = await ctx.db.transaction(async (tx) => {
    await holdType(tx, scope);
    await holdUnlockedEntry({ ...ctx, db: tx }, entry, lockOverride);
    const drafts = await tx.select().from(versions).where(and(eq(versions.entryId, entry.id), eq(versions.state, 'draft')));
    const locale = input.locale ?? preferredLocale(scope.space, drafts.map((d) => d.locale));
    const current = drafts.find((d) => d.locale === locale);
    const base = current ?? drafts.find((d) => d.locale === scope.space.defaultLocale) ?? drafts[0];
    const draft = draftOf(scope, base, changes);
    if (current) {
      await tx.update(versions).set({ ...draft, updatedAt: now }).where(eq(versions.id, current.id));
    } else {
      await tx.insert(versions).values({ ...draft, entryId: entry.id, typeId: scope.type.id, locale, state: 'draft', createdAt: now, updatedAt: now });
    }
    const shared = sharedValues(changes.fields, scope.type.fields);
    const others = and(eq(versions.entryId, entry.id), eq(versions.state, 'draft'), sql`${versions.locale} <> ${locale}`);
    if (Object.keys(shared).length) await tx.update(versions).set({ fields: withValues(shared), updatedAt: now }).where(others);
    if (changes.private !== undefined || changes.segmentUuids !== undefined) {
      await tx.update(versions).set({ private: draft.private, segmentUuids: draft.segmentUuids }).where(others);
    }
    await tx.update(contentEntries).set({ updatedAt: now }).where(eq(contentEntries.id, entry.id));
    return locale;
  }).catch((err) => { throw slugTaken(err); });
  return showVersion(ctx, scope, entry, locale, 'draft');
}

/**
 * DELETE: the entry, every locale and state. Removing a published entry takes it off the content API,
 * which only a role that may publish does: a writer deletes entries that are not published.
 */
export async function deleteEntry(ctx: ActingContext, scope: EntryScope, uuid: string, lockOverride = false): Promise<void> {
  ctx.actor.assertHolds('content.write', scope.space.uid);
  const entry = await requireEntry(ctx, scope, uuid);
  const [published] = await ctx.db.select({ id: versions.id }).from(versions)
    .where(and(eq(versions.entryId, entry.id), eq(versions.state, 'published'))).limit(1);
  if (published && !ctx.actor.holdsOn('content.publish', scope.space.uid)) {
    throw forbidden('The entry is published: only a role that may publish deletes it');
  }
  await ctx.db.transaction(async (tx) => {
    await holdUnlockedEntry({ ...ctx, db: tx }, entry, lockOverride);
    await tx.delete(contentEntries).where(eq(contentEntries.id, entry.id));
    await dropEntryLocks({ db: tx }, entry.uuid);
  });
  ctx.caches.changed('content');
}
