import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { ActingContext } from '../../admin-auth/principal.js';
import type { Context } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { uniqueViolation } from '../../db/unique.js';
import { entryNotPublished, FieldErrors, invalidField, notFound } from '../../errors/index.js';
import type { Job } from '../../jobs/runner.js';
import { holdUnlockedEntry } from './lock.js';
import { preferredLocale, requireEntry, showVersion, withValues } from './entries.js';
import { missingRequired, sharedValues } from './fields.js';
import { checkLocale } from './input.js';
import type { EntryScope } from './scope.js';
import type { AdminEntryBody } from './schema.js';
import { contentEntries, contentEntryVersions, contentSpaces, contentTypes, type ContentFieldDefinition } from '../../tables/content.js';
import { emitWebhookEvent, type WebhookEvent } from '../../webhooks/outbox.js';

const versions = contentEntryVersions;
/** What a change needs to put its webhook event in the outbox. */
type Outbox = Pick<Context, 'clock' | 'caches' | 'database'>;

/**
 * The entry's row, locked for the rest of the transaction: publishing, unpublishing and saving one entry
 * take turns. With its space's and type's uids, for the webhook events.
 */
async function lockEntry(tx: Db, entryId: number) {
  const [found] = await tx.select({ entry: contentEntries, spaceUid: contentSpaces.uid, typeUid: contentTypes.uid }).from(contentEntries)
    .innerJoin(contentSpaces, eq(contentSpaces.id, contentEntries.spaceId)).innerJoin(contentTypes, eq(contentTypes.id, contentEntries.typeId))
    .where(eq(contentEntries.id, entryId)).for('update', { of: contentEntries });
  if (!found) throw notFound('Entry');
  return { ...found.entry, spaceUid: found.spaceUid, typeUid: found.typeUid };
}

/** `entry.published` or `entry.unpublished`: which entry, and in which locales. Content is of no realm. */
function entryEvent(type: 'entry.published' | 'entry.unpublished', entry: { uuid: string; spaceUid: string; typeUid: string }, locales: string[]): WebhookEvent {
  return { type, realmUid: null, data: { space_uid: entry.spaceUid, type_uid: entry.typeUid, uuid: entry.uuid, locales } };
}

/**
 * Copies the draft of each locale (or of `locale` only) to its published version, published at `now`.
 * A draft missing a required field (the type may have changed since it was saved) is refused with 422,
 * as is a slug another entry's published version holds. Answers the locales published.
 */
export async function publishDrafts(tx: Db, definitions: readonly ContentFieldDefinition[], entryId: number, locale: string | undefined, ctx: Outbox): Promise<string[]> {
  const now = ctx.clock.now();
  const entry = await lockEntry(tx, entryId);
  const drafts = await tx.select().from(versions)
    .where(and(eq(versions.entryId, entryId), eq(versions.state, 'draft'), locale === undefined ? undefined : eq(versions.locale, locale)));
  if (!drafts.length) throw invalidField('locale', 'has no draft of this entry');
  const errors = new FieldErrors();
  for (const draft of drafts) {
    for (const name of missingRequired(draft.fields, definitions)) errors.add(`fields.${name}`, `can't be blank (${draft.locale})`);
  }
  errors.throwIfAny();
  for (const { id: _id, state: _state, ...draft } of drafts) {
    const published = { ...draft, state: 'published' as const, publishedAt: now, unpublishedAt: entry.unpublishAt };
    await tx.insert(versions).values(published).onConflictDoUpdate({ target: [versions.entryId, versions.locale, versions.state], set: published })
      .catch((err) => {
        throw uniqueViolation(err) === 'content_entry_versions_slug_key'
          ? invalidField('slug', `is already taken by a published entry (${draft.locale})`) : err;
      });
  }
  if (locale !== undefined) {
    // What is the same in every locale stays so among the published versions: the other locales take this one's.
    const [draft] = drafts;
    await tx.update(versions).set({ fields: withValues(sharedValues(draft.fields, definitions)), private: draft.private, segmentUuids: draft.segmentUuids })
      .where(and(eq(versions.entryId, entryId), eq(versions.state, 'published'), sql`${versions.locale} <> ${locale}`));
  }
  await tx.update(versions).set({ publishedAt: now, unpublishedAt: null }).where(inArray(versions.id, drafts.map((d) => d.id)));
  // Publishing every locale is what a scheduled publish would have done.
  if (locale === undefined) await tx.update(contentEntries).set({ publishAt: null }).where(eq(contentEntries.id, entryId));
  const published = drafts.map((d) => d.locale);
  await emitWebhookEvent(ctx, tx, entryEvent('entry.published', entry, published));
  return published;
}

/** Removes the published versions (all, or of `locale`), so the content API stops serving them at once. Answers the locales removed. */
export async function unpublishVersions(tx: Db, entryId: number, locale: string | undefined, ctx: Outbox): Promise<string[]> {
  const now = ctx.clock.now();
  const entry = await lockEntry(tx, entryId);
  const which = and(eq(versions.entryId, entryId), locale === undefined ? undefined : eq(versions.locale, locale));
  const removed = await tx.delete(versions).where(and(which, eq(versions.state, 'published'))).returning({ locale: versions.locale });
  await tx.update(versions).set({ unpublishedAt: now }).where(and(which, eq(versions.state, 'draft'), inArray(versions.locale, removed.map((r) => r.locale).concat(''))));
  if (locale === undefined) await tx.update(contentEntries).set({ unpublishAt: null }).where(eq(contentEntries.id, entryId));
  if (removed.length) await emitWebhookEvent(ctx, tx, entryEvent('entry.unpublished', entry, removed.map((r) => r.locale)));
  return removed.map((r) => r.locale);
}

function checkedLocale(scope: EntryScope, locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined;
  const errors = new FieldErrors();
  checkLocale(locale, scope.space.locales, errors);
  errors.throwIfAny();
  return locale;
}

/** POST .../publish: answers the published version of `locale` (default: the default locale, or the entry's first). */
export async function publishEntry(ctx: ActingContext, scope: EntryScope, uuid: string, input: { locale?: string }, lockOverride = false): Promise<AdminEntryBody> {
  ctx.actor.assertHolds('content.publish', scope.space.uid);
  const entry = await requireEntry(ctx, scope, uuid);
  const locale = checkedLocale(scope, input.locale);
  const published = await ctx.db.transaction(async (tx) => {
    await holdUnlockedEntry({ ...ctx, db: tx }, entry, lockOverride);
    return publishDrafts(tx, scope.type.fields, entry.id, locale, ctx);
  });
  // The content API's answers are kept a moment (content/delivery.ts): read them again now.
  ctx.caches.changed('content');
  return showVersion(ctx, scope, { ...entry, publishAt: locale === undefined ? null : entry.publishAt }, locale ?? preferredLocale(scope.space, published), 'published');
}

/** POST .../unpublish: 409 when nothing (of `locale`) is published; answers the draft. */
export async function unpublishEntry(ctx: ActingContext, scope: EntryScope, uuid: string, input: { locale?: string }, lockOverride = false): Promise<AdminEntryBody> {
  ctx.actor.assertHolds('content.publish', scope.space.uid);
  const entry = await requireEntry(ctx, scope, uuid);
  const locale = checkedLocale(scope, input.locale);
  const removed = await ctx.db.transaction(async (tx) => {
    await holdUnlockedEntry({ ...ctx, db: tx }, entry, lockOverride);
    return unpublishVersions(tx, entry.id, locale, ctx);
  });
  ctx.caches.changed('content');
  if (!removed.length) throw entryNotPublished();
  const after = { ...entry, unpublishAt: locale === undefined ? null : entry.unpublishAt };
  return showVersion(ctx, scope, after, locale ?? preferredLocale(scope.space, removed), 'draft');
}

const momentOf = (value: string | null | undefined, kept: Date | null) => (value === undefined ? kept : value === null ? null : new Date(value));

/**
 * PUT .../schedule: when the schedule publishes the drafts of every locale and when it unpublishes every
 * locale (null cancels; left out keeps). A moment given must be in the future, and an unpublish after
 * the publish when both are set. A published version shows the unpublish moment as its `unpublished_at`.
 */
export async function scheduleEntry(ctx: ActingContext, scope: EntryScope, uuid: string, input: { publish_at?: string | null; unpublish_at?: string | null }): Promise<AdminEntryBody> {
  ctx.actor.assertHolds('content.publish', scope.space.uid);
  const entry = await requireEntry(ctx, scope, uuid);
  const now = ctx.clock.now();
  const publishAt = momentOf(input.publish_at, entry.publishAt);
  const unpublishAt = momentOf(input.unpublish_at, entry.unpublishAt);
  const errors = new FieldErrors();
  // The schema's date-time format lets a leap second (:60) through, which no Date holds.
  for (const [field, moment] of [['publish_at', publishAt], ['unpublish_at', unpublishAt]] as const) {
    if (moment && Number.isNaN(moment.getTime())) errors.add(field, 'is not a moment that exists');
  }
  errors.throwIfAny();
  if (input.publish_at && publishAt! <= now) errors.add('publish_at', 'must be in the future');
  if (input.unpublish_at && unpublishAt! <= now) errors.add('unpublish_at', 'must be in the future');
  if (publishAt && unpublishAt && unpublishAt <= publishAt) errors.add('unpublish_at', 'must be after publish_at');
  errors.throwIfAny();
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(contentEntries).set({ publishAt, unpublishAt }).where(eq(contentEntries.id, entry.id)).returning();
    await tx.update(versions).set({ unpublishedAt: unpublishAt }).where(and(eq(versions.entryId, entry.id), eq(versions.state, 'published')));
    return row;
  });
  if (!updated) throw notFound('Entry');
  ctx.caches.changed('content');
  return showVersion(ctx, scope, updated, undefined, 'draft');
}

const BATCH = 100;

/** Runs what one entry's schedule holds until `now`, in the order of its moments. */
async function runSchedule(ctx: Context, entryId: number, definitions: readonly ContentFieldDefinition[], now: Date): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const entry = await lockEntry(tx, entryId);
    const due = [
      { at: entry.publishAt, run: () => publishDrafts(tx, definitions, entryId, undefined, ctx) },
      { at: entry.unpublishAt, run: () => unpublishVersions(tx, entryId, undefined, ctx) },
    ].filter((step) => step.at && step.at <= now).sort((a, b) => a.at!.getTime() - b.at!.getTime());
    for (const step of due) await step.run();
  });
}

/**
 * The scheduling job: publishes and unpublishes the entries whose moments have passed. A scheduled
 * publish that cannot happen (a required field left blank, a slug taken) is dropped and logged, so it
 * is not retried every round; the editor sees the schedule gone.
 */
export async function runDueSchedules(ctx: Context): Promise<number> {
  const now = ctx.clock.now();
  const isDue = or(lte(contentEntries.publishAt, now), lte(contentEntries.unpublishAt, now));
  let done = 0;
  for (;;) {
    const due = await ctx.db.select({ id: contentEntries.id, definitions: contentTypes.fields }).from(contentEntries)
      .innerJoin(contentTypes, eq(contentTypes.id, contentEntries.typeId)).where(isDue).orderBy(asc(contentEntries.id)).limit(BATCH);
    for (const { id, definitions } of due) {
      try {
        await runSchedule(ctx, id, definitions, now);
      } catch (err) {
        ctx.log.warn({ entry: id, reason: (err as Error).message }, 'a scheduled publish or unpublish could not run: dropped');
        await ctx.db.update(contentEntries).set({ publishAt: null }).where(and(eq(contentEntries.id, id), lte(contentEntries.publishAt, now)));
        await ctx.db.update(contentEntries).set({ unpublishAt: null }).where(and(eq(contentEntries.id, id), lte(contentEntries.unpublishAt, now)));
      }
      done += 1;
    }
    if (due.length) ctx.caches.changed('content');
    if (due.length < BATCH) return done;
  }
}

export const contentScheduleJob: Job = { name: 'content-schedule', everyMs: 60_000, leaseMs: 10 * 60_000, run: runDueSchedules };
