import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentScheduleJob } from '../../src/content/entries/publishing.js';
import { runDueJobs } from '../../src/jobs/runner.js';
import { JOBS } from '../../src/server.js';
import { makeSpace, makeType } from '../helpers/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { memberToken } from '../helpers/realms.js';
import { entryClient, fieldsOf, type EntryClient } from './entry-helpers.js';

let h: Harness;
let space: { uid: string };
let type: { uid: string };
let entries: EntryClient;

const FIELDS = [
  { name: 'title', type: 'text', localized: true },
  { name: 'price', type: 'decimal' },
];

beforeAll(async () => {
  h = await startHarness();
  space = await makeSpace(h, { default_locale: 'en', locales: ['en', 'es'] });
  type = await makeType(h, space.uid, { fields: FIELDS });
  entries = entryClient(h, space.uid, type.uid);
});
afterAll(async () => { await h?.close(); });

/** An entry with a draft in English and in Spanish. */
async function bilingual(name: string) {
  const created = await entries.created({ name, fields: { title: `${name} en`, price: 1 } });
  const spanish = await entries.put(created.meta.uuid, { locale: 'es', fields: { title: `${name} es` } });
  expect(spanish.statusCode, spanish.body).toBe(200);
  return created.meta.uuid as string;
}

/** Moves the clock past the job's period and runs the due jobs, as the server's timer would. */
async function runScheduleJob(minutes = 2) {
  h.clock.advanceMinutes(minutes);
  return runDueJobs(h.ctx, [contentScheduleJob]);
}

describe('publishing entries', () => {
  it('copies the draft of every locale to published, with published_at from the clock', async () => {
    const uuid = await bilingual('Launch');
    h.clock.advanceMinutes(5);
    const publishedAt = h.clock.now().toISOString();
    const res = await entries.post(uuid, 'publish');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meta).toMatchObject({ version_type: 'published', locale: 'en', published_at: publishedAt, available_locales: ['en', 'es'] });
    const spanish = (await entries.get(uuid, '?locale=es&version=published')).json();
    expect(spanish).toMatchObject({ meta: { version_type: 'published', locale: 'es', published_at: publishedAt }, fields: { title: 'Launch es', price: 1 } });
    expect((await entries.get(uuid)).json().meta.published_at).toBe(publishedAt);

    // A saved draft leaves what is published as it was until it is published again.
    await entries.put(uuid, { name: 'Launch v2', fields: { title: 'Changed', price: 2 } });
    const still = (await entries.get(uuid, '?version=published')).json();
    expect(still).toMatchObject({ meta: { name: 'Launch' }, fields: { title: 'Launch en', price: 1 } });
    h.clock.advanceMinutes(1);
    const again = await entries.post(uuid, 'publish', {});
    expect(again.json()).toMatchObject({ meta: { name: 'Launch v2', published_at: h.clock.now().toISOString() }, fields: { title: 'Changed', price: 2 } });
    const listed = (await entries.list('?version=published&locale=es')).json();
    expect(listed.entries.map((e: { meta: { uuid: string } }) => e.meta.uuid)).toContain(uuid);
  });

  it('publishes and unpublishes one locale only when asked', async () => {
    const uuid = await bilingual('Partial');
    const res = await entries.post(uuid, 'publish', { locale: 'es' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meta).toMatchObject({ locale: 'es', available_locales: ['es'] });
    expect((await entries.get(uuid, '?version=published&locale=en')).statusCode).toBe(404);
    // Without a locale, the one version there is.
    expect((await entries.get(uuid, '?version=published')).json().meta.locale).toBe('es');
    expect((await entries.post(uuid, 'publish', { locale: 'de' })).statusCode).toBe(422);
    await entries.post(uuid, 'publish');
    const down = await entries.post(uuid, 'unpublish', { locale: 'en' });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json().meta).toMatchObject({ version_type: 'draft', locale: 'en', unpublished_at: h.clock.now().toISOString() });
    expect((await entries.get(uuid, '?version=published&locale=en')).statusCode).toBe(404);
    expect((await entries.get(uuid, '?version=published&locale=es')).json().meta.available_locales).toEqual(['es']);
  });

  it('keeps fields that are not localized the same in every published locale when one locale is published', async () => {
    const uuid = await bilingual('Shared price');
    await entries.post(uuid, 'publish');
    await entries.put(uuid, { locale: 'es', fields: { price: 42, title: 'Nuevo' } });
    expect((await entries.post(uuid, 'publish', { locale: 'es' })).statusCode).toBe(200);
    const english = (await entries.get(uuid, '?version=published&locale=en')).json();
    expect(english.fields).toEqual({ title: 'Shared price en', price: 42 });
    expect((await entries.get(uuid, '?version=published&locale=es')).json().fields).toEqual({ title: 'Nuevo', price: 42 });
  });

  it('unpublishes: the published versions are gone at once; a second unpublish is 409', async () => {
    const uuid = await bilingual('Gone');
    await entries.post(uuid, 'publish');
    const res = await entries.post(uuid, 'unpublish');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meta).toMatchObject({ version_type: 'draft', unpublished_at: h.clock.now().toISOString() });
    expect((await entries.get(uuid, '?version=published')).statusCode).toBe(404);
    expect((await entries.get(uuid, '?version=published&locale=es')).statusCode).toBe(404);
    const listed = (await entries.list('?version=published&per_page=100')).json();
    expect(listed.entries.map((e: { meta: { uuid: string } }) => e.meta.uuid)).not.toContain(uuid);
    const again = await entries.post(uuid, 'unpublish');
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0]).toMatch(/not published/);
  });

  it('refuses to publish a slug another published entry holds in the locale', async () => {
    const first = await entries.created({ name: 'Holder', slug: 'holder' });
    await entries.post(first.meta.uuid, 'publish');
    await entries.put(first.meta.uuid, { slug: 'moved' });
    const second = await entries.created({ name: 'Newcomer', slug: 'holder' });
    const res = await entries.post(second.meta.uuid, 'publish');
    expect(res.statusCode).toBe(422);
    expect(fieldsOf(res)).toEqual(['slug']);
    expect((await entries.get(second.meta.uuid, '?version=published')).statusCode).toBe(404);
  });

  it('lets each space role do only what it carries: a writer cannot publish', async () => {
    const writer = await memberToken(h, [{ key: 'space_writer', target: space.uid }]);
    const editor = await memberToken(h, [{ key: 'space_editor', target: space.uid }]);
    const viewer = await memberToken(h, [{ key: 'space_viewer', target: space.uid }]);
    const elsewhere = await memberToken(h, [{ key: 'space_admin', target: (await makeSpace(h)).uid }]);

    const created = await entries.create({ name: 'By a writer' }, writer);
    expect(created.statusCode, created.body).toBe(201);
    const uuid = created.json().meta.uuid;
    expect((await entries.put(uuid, { name: 'Saved by a writer' }, writer)).statusCode).toBe(200);
    expect((await entries.get(uuid, '', writer)).statusCode).toBe(200);

    const refused = await entries.post(uuid, 'publish', undefined, writer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ errors: ['Your role does not allow this action'], code: 'ATR_FORBIDDEN' });
    expect((await entries.schedule(uuid, { publish_at: new Date(h.clock.now().getTime() + 3_600_000).toISOString() }, writer)).statusCode).toBe(403);
    expect((await entries.get(uuid, '?version=published')).statusCode).toBe(404);

    expect((await entries.post(uuid, 'publish', undefined, editor)).statusCode).toBe(200);
    expect((await entries.post(uuid, 'unpublish', undefined, writer)).statusCode).toBe(403);
    // Deleting a published entry takes it down: a writer may not; an editor may.
    const deleteRefused = await entries.remove(uuid, writer);
    expect(deleteRefused.statusCode).toBe(403);
    expect((await entries.get(uuid, '?version=published')).statusCode).toBe(200);

    expect((await entries.get(uuid, '', viewer)).statusCode).toBe(200);
    expect((await entries.list('', viewer)).statusCode).toBe(200);
    expect((await entries.create({ name: 'By a viewer' }, viewer)).statusCode).toBe(403);
    expect((await entries.put(uuid, { name: 'x' }, viewer)).statusCode).toBe(403);

    for (const res of [await entries.get(uuid, '', elsewhere), await entries.list('', elsewhere), await entries.create({ name: 'x' }, elsewhere),
      await entries.post(uuid, 'publish', undefined, elsewhere), await entries.remove(uuid, elsewhere)]) {
      expect(res.statusCode).toBe(403);
    }
    expect((await entries.get(uuid, '', 'garbage')).statusCode).toBe(401);

    const draftOnly = (await entries.create({ name: 'Draft by a writer' }, writer)).json().meta.uuid;
    expect((await entries.remove(draftOnly, writer)).statusCode).toBe(204);
    expect((await entries.remove(uuid, editor)).statusCode).toBe(204);
  });

  it('refuses a schedule in the past or an unpublish before the publish', async () => {
    const uuid = await bilingual('Badly scheduled');
    const at = (minutes: number) => new Date(h.clock.now().getTime() + minutes * 60_000).toISOString();
    const past = await entries.schedule(uuid, { publish_at: at(-1) });
    expect(fieldsOf(past)).toEqual(['publish_at']);
    const before = await entries.schedule(uuid, { publish_at: at(60), unpublish_at: at(30) });
    expect(fieldsOf(before)).toEqual(['unpublish_at']);
    const leap = await entries.schedule(uuid, { publish_at: '2100-12-31T23:59:60Z' });
    expect(leap.statusCode).toBe(422);
    const garbage = await entries.schedule(uuid, { publish_at: 'tomorrow' });
    expect(garbage.statusCode).toBe(422);
    const extra = await entries.schedule(uuid, { publish_at: at(60), colour: 'red' });
    expect(fieldsOf(extra)).toEqual(['colour']);
  });

  it('runs scheduled publishes and unpublishes from the job, with the injected clock', async () => {
    expect(JOBS).toContain(contentScheduleJob);
    const uuid = await bilingual('Scheduled');
    const publishAt = new Date(h.clock.now().getTime() + 60 * 60_000);
    const unpublishAt = new Date(h.clock.now().getTime() + 120 * 60_000);
    const res = await entries.schedule(uuid, { publish_at: publishAt.toISOString(), unpublish_at: unpublishAt.toISOString() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ publish_at: publishAt.toISOString(), unpublish_at: unpublishAt.toISOString(), meta: { version_type: 'draft' } });

    await runScheduleJob();
    expect((await entries.get(uuid, '?version=published')).statusCode).toBe(404);

    h.clock.advanceMinutes(60);
    await runScheduleJob();
    const published = await entries.get(uuid, '?version=published&locale=es');
    expect(published.statusCode).toBe(200);
    // The published version tells when the schedule takes it down.
    expect(published.json()).toMatchObject({ meta: { unpublished_at: unpublishAt.toISOString(), available_locales: ['en', 'es'] }, publish_at: null, unpublish_at: unpublishAt.toISOString() });

    h.clock.advanceMinutes(60);
    await runScheduleJob();
    expect((await entries.get(uuid, '?version=published')).statusCode).toBe(404);
    expect((await entries.get(uuid)).json()).toMatchObject({ publish_at: null, unpublish_at: null, meta: { unpublished_at: h.clock.now().toISOString() } });
  });

  it('runs a late job in the order of the moments, and cancels with null', async () => {
    const upAndDown = await bilingual('Up then down');
    const downThenUp = await bilingual('Down then up');
    const cancelled = await bilingual('Cancelled');
    await entries.post(downThenUp, 'publish');
    const at = (minutes: number) => new Date(h.clock.now().getTime() + minutes * 60_000).toISOString();
    expect((await entries.schedule(upAndDown, { publish_at: at(10), unpublish_at: at(20) })).statusCode).toBe(200);
    expect((await entries.schedule(downThenUp, { unpublish_at: at(10) })).statusCode).toBe(200);
    expect((await entries.schedule(downThenUp, { publish_at: at(20) })).statusCode).toBe(422);
    expect((await entries.schedule(cancelled, { publish_at: at(10) })).statusCode).toBe(200);
    const cancel = await entries.schedule(cancelled, { publish_at: null });
    expect(cancel.json().publish_at).toBeNull();

    await runScheduleJob(30);
    expect((await entries.get(upAndDown, '?version=published')).statusCode).toBe(404);
    expect((await entries.get(downThenUp, '?version=published')).statusCode).toBe(404);
    expect((await entries.get(cancelled, '?version=published')).statusCode).toBe(404);
  });

  it('drops a scheduled publish that cannot happen, so it is not retried', async () => {
    const holder = await entries.created({ name: 'Slot', slug: 'slot' });
    await entries.post(holder.meta.uuid, 'publish');
    await entries.put(holder.meta.uuid, { slug: 'slot-moved' });
    const blocked = await entries.created({ name: 'Blocked', slug: 'slot' });
    const at = new Date(h.clock.now().getTime() + 5 * 60_000).toISOString();
    expect((await entries.schedule(blocked.meta.uuid, { publish_at: at })).statusCode).toBe(200);
    await runScheduleJob(10);
    expect((await entries.get(blocked.meta.uuid, '?version=published')).statusCode).toBe(404);
    expect((await entries.get(blocked.meta.uuid)).json().publish_at).toBeNull();
  });

  it('answers unknown entries and bad bodies with documented 4xx', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await entries.post(unknown, 'publish')).statusCode).toBe(404);
    expect((await entries.post('x'.repeat(90), 'unpublish')).statusCode).toBe(404);
    expect((await entries.schedule(unknown, {})).statusCode).toBe(404);
    const uuid = await bilingual('Bodies');
    expect((await entries.post(uuid, 'publish', { locale: 5 } as never)).statusCode).toBe(422);
    expect((await entries.post(uuid, 'publish', { other: 1 })).statusCode).toBe(422);
    expect((await entries.post(uuid, 'publish', { locale: 'x\u0000' })).statusCode).toBe(400);
  });
});
