import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { contentEntryVersions } from '../../src/tables/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { makeEntry, makeSpaceAndType } from './delivery-fixtures.js';

let h: Harness;
let base: string;
let space: string;

beforeAll(async () => {
  h = await startHarness();
  ({ base, space } = await makeSpaceAndType(h));
});
afterAll(async () => { await h?.close(); });

const get = (url: string, headers: Record<string, string> = {}) => h.request({ method: 'GET', url, token: null, headers });
const names = (res: { json(): { entries: { meta: { name: string } }[] } }) => res.json().entries.map((e) => e.meta.name).sort();

describe('content delivery: locales', () => {
  it('answers the space default locale, another locale, and the fallback where an entry lacks the asked one', async () => {
    const both = await makeEntry(h, space, 'product', { locale: 'en', name: 'Shoe', fields: { title: 'Shoe' } }, { locale: 'es', name: 'Zapato', fields: { title: 'Zapato' } });
    await makeEntry(h, space, 'product', { locale: 'en', name: 'Hat', fields: { title: 'Hat' } });
    await makeEntry(h, space, 'product', { locale: 'es', name: 'Bufanda' });
    // A draft in es does not count as a version in es.
    await makeEntry(h, space, 'product', { locale: 'en', name: 'Sock' }, { locale: 'es', state: 'draft', name: 'Calcetín' });

    expect(names(await get(base))).toEqual(['Hat', 'Shoe', 'Sock']);
    expect(names(await get(`${base}?locale=es`))).toEqual(['Bufanda', 'Zapato']);
    const fallback = await get(`${base}?locale=es&fallback_locale=en`);
    expect(names(fallback)).toEqual(['Bufanda', 'Hat', 'Sock', 'Zapato']);
    const hat = fallback.json().entries.find((e: { meta: { name: string } }) => e.meta.name === 'Hat');
    expect(hat.meta.locale).toBe('en');
    expect(names(await get(`${base}?locale=fr&fallback_locale=es`))).toEqual(['Bufanda', 'Zapato']);
    expect(fallback.json().meta.total_entries).toBe(4);
    // A page past the first is counted apart: the same total.
    expect((await get(`${base}?locale=es&fallback_locale=en&per_page=1&page=2`)).json().meta).toEqual({ total_entries: 4, per_page: 1, current_page: 2, total_pages: 4 });

    const one = await get(`${base}/${both}?locale=es`);
    expect(one.statusCode).toBe(200);
    expect(one.json().meta).toMatchObject({ uuid: both, locale: 'es', name: 'Zapato', available_locales: ['en', 'es'] });
    expect((await get(`${base}/${both}?locale=fr`)).statusCode).toBe(404);
    expect((await get(`${base}/${both}?locale=fr&fallback_locale=en`)).json().meta.name).toBe('Shoe');
  });

  it('refuses a locale the space does not offer', async () => {
    for (const query of ['locale=de', 'fallback_locale=de', 'locale=__proto__']) {
      const res = await get(`${base}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ error: { query: { [query.split('=')[0]]: ['Locale not available'] } } });
    }
    expect((await get(`${base}/00000000-0000-4000-8000-000000000000?locale=de`)).json()).toEqual({ error: { query: { locale: ['Locale not available'] } } });
  });
});

describe('content delivery: publishing', () => {
  it('serves a change of what is published at once, and stops at a scheduled unpublish moment', async () => {
    const { space: s6, base: b6 } = await makeSpaceAndType(h);
    const admin = `/api/admin/content/spaces/${s6}/types/product/entries`;
    const uuid = await makeEntry(h, s6, 'product', { name: 'Live' });
    expect(names(await get(b6))).toEqual(['Live']);
    expect((await h.request({ method: 'POST', url: `${admin}/${uuid}/unpublish` })).statusCode).toBe(200);
    expect(names(await get(b6))).toEqual([]);
    expect((await h.request({ method: 'POST', url: `${admin}/${uuid}/publish` })).statusCode).toBe(200);
    expect(names(await get(b6))).toEqual(['Live']);
    const at = new Date(h.clock.now().getTime() + 60_000).toISOString();
    expect((await h.request({ method: 'PUT', url: `${admin}/${uuid}/schedule`, payload: { unpublish_at: at } })).statusCode).toBe(200);
    expect((await get(`${b6}/${uuid}`)).json().meta.unpublished_at).toBe(at);
    h.clock.advance(60_000);
    expect(names(await get(b6))).toEqual([]);
    expect((await get(`${b6}/${uuid}`)).statusCode).toBe(404);
    expect((await h.request({ method: 'DELETE', url: `${admin}/${uuid}` })).statusCode).toBe(204);
  });
});

describe('content delivery: kept answers', () => {
  it('answers a kept answer for a second, then reads it again in the background while still answering it', async () => {
    const { space: s7, base: b7 } = await makeSpaceAndType(h);
    await makeEntry(h, s7, 'product', { name: 'Before' });
    expect(names(await get(b7))).toEqual(['Before']);
    // A change behind the API's back (no cache emptied): only time brings it.
    await h.ctx.db.update(contentEntryVersions).set({ name: 'After' }).where(eq(contentEntryVersions.name, 'Before'));
    expect(names(await get(b7))).toEqual(['Before']);
    h.clock.advance(1_500);
    expect(names(await get(b7))).toEqual(['Before']);
    let seen: string[] = [];
    for (let i = 0; i < 50 && seen[0] !== 'After'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = names(await get(b7));
    }
    expect(seen).toEqual(['After']);
  });
});

describe('content delivery: one entry', () => {
  it('answers a published entry, 404 for a draft, an unknown uuid, another type\'s entry or a malformed uuid', async () => {
    const shown = await makeEntry(h, space, 'product', { name: 'Shown' });
    const draft = await makeEntry(h, space, 'product', { state: 'draft', name: 'Hidden' });
    const res = await get(`${base}/${shown}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toMatchObject({ uuid: shown, name: 'Shown', version_type: 'published' });
    for (const uuid of [draft, '00000000-0000-4000-8000-000000000000', 'nope', '1'.repeat(64)]) {
      const missing = await get(`${base}/${uuid}`);
      expect(missing.statusCode, uuid).toBe(404);
      expect(missing.json()).toEqual({ errors: ['Entry not found'] });
    }
    expect((await get(`${base}/${shown}?sort_by=meta.name`)).json()).toEqual({ error: { query: { sort_by: ['Unknown parameter'] } } });
  });
});

describe('content delivery: ETag and 304', () => {
  it('answers a strong quoted ETag with Cache-Control public, no-cache, and 304 to a matching If-None-Match', async () => {
    await makeEntry(h, space, 'product', { name: 'Tagged' });
    const first = await get(base);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const again = await get(base, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((await get(base, { 'if-none-match': `"other", W/${first.headers.etag}` })).statusCode).toBe(304);
    expect((await get(base, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    // Another query, another body, another tag; a change of content, another tag.
    expect((await get(`${base}?per_page=1`)).headers.etag).not.toBe(first.headers.etag);
    await makeEntry(h, space, 'product', { name: 'Newer' });
    const changed = await get(base, { 'if-none-match': first.headers.etag as string });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    const item = await get(`${base}/${changed.json().entries[0].meta.uuid}`);
    expect((await get(`${base}/${changed.json().entries[0].meta.uuid}`, { 'if-none-match': item.headers.etag as string })).statusCode).toBe(304);
  });
});

describe('content delivery: include', () => {
  it('embeds referenced entries and assets to the depth asked, leaving what cannot be shown as stored', async () => {
    const { space: s2, base: b2 } = await makeSpaceAndType(h);
    const leaf = await makeEntry(h, s2, 'product', { name: 'Leaf', fields: { title: 'leaf' } });
    const hidden = await makeEntry(h, s2, 'product', { state: 'draft', name: 'Hidden' });
    const boundary = 'deliveryasset';
    const uploaded = await h.request({
      method: 'POST', url: `/api/admin/content/spaces/${s2}/assets`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n\r\nplain notes\n\r\n--${boundary}--\r\n`),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const asset = uploaded.json();
    const middle = await makeEntry(h, s2, 'product', { name: 'Middle', fields: { related: { uuid: leaf }, photo: { uuid: asset.uuid } } });
    const top = await makeEntry(h, s2, 'product', {
      name: 'Top', fields: { related: { uuid: middle }, parts: [{ uuid: leaf }, { uuid: hidden }], photo: { uuid: asset.uuid } },
    });
    const plain = (await get(`${b2}/${top}`)).json();
    expect(plain.fields.related).toEqual({ uuid: middle });

    const one = (await get(`${b2}/${top}?include=1`)).json();
    expect(one.fields.related.meta).toMatchObject({ uuid: middle, name: 'Middle' });
    expect(one.fields.related.fields.related).toEqual({ uuid: leaf });
    expect(one.fields.parts[0].meta.name).toBe('Leaf');
    expect(one.fields.parts[1]).toEqual({ uuid: hidden });
    expect(one.fields.photo).toEqual(asset);
    // Past the depth, references stay as stored.
    expect(one.fields.related.fields.photo).toEqual({ uuid: asset.uuid });

    const two = (await get(`${b2}/${top}?include=2`)).json();
    expect(two.fields.related.fields.related.meta).toMatchObject({ uuid: leaf, name: 'Leaf' });
    expect(two.fields.related.fields.related.fields.title).toBe('leaf');
    expect(two.fields.related.fields.photo).toEqual(asset);

    const listed = (await get(`${b2}?include=2&meta.name=Top`)).json();
    expect(listed.entries[0].fields.related.fields.related.meta.name).toBe('Leaf');
  });
});

describe('content delivery: fields=<JSONPath>', () => {
  it('trims each entry to what the path selects, in place', async () => {
    const { space: s3, base: b3 } = await makeSpaceAndType(h);
    const uuid = await makeEntry(h, s3, 'product', { name: 'Trim', tags: ['a', 'b', 'c'], fields: { title: 'T', price: 3 } });
    const one = (path: string) => get(`${b3}/${uuid}?fields=${encodeURIComponent(path)}`);
    expect((await one('$.fields.title')).json()).toEqual({ fields: { title: 'T' } });
    expect((await one('$.meta[uuid,name]')).json()).toEqual({ meta: { uuid, name: 'Trim' } });
    expect((await one('$.meta.tags[1:]')).json()).toEqual({ meta: { tags: ['b', 'c'] } });
    expect((await one('$..price')).json()).toEqual({ fields: { price: 3 } });
    expect((await one('$.nothing')).json()).toEqual({});
    expect((await one('$')).json().meta.name).toBe('Trim');
    const listed = await get(`${b3}?fields=${encodeURIComponent('$.meta.slug')}`);
    expect(listed.json().entries).toEqual([{ meta: { slug: expect.any(String) } }]);
    expect(listed.json().meta.total_entries).toBe(1);
  });

  it('refuses a malformed path and never runs script', async () => {
    const { base: b4 } = await makeSpaceAndType(h);
    for (const path of ['$[', 'fields.title', '', "$.fields[?(@.price > 1)]", '$.fields[(process.exit())]', "$[?(this.constructor.constructor('return process')().exit())]", '$.a]', `$${'.a'.repeat(300)}`]) {
      const res = await get(`${b4}?fields=${encodeURIComponent(path)}`);
      expect(res.statusCode, path).toBe(400);
      expect(Object.keys(res.json().error.query), path).toEqual(['fields']);
    }
    expect((await get(`${b4}?fields=${encodeURIComponent('$.constructor')}`)).statusCode).toBe(200);
    expect((await get(`${b4}?fields=${encodeURIComponent('$.__proto__')}`)).statusCode).toBe(200);
  });
});

describe('content delivery: private entries and the delivery token', () => {
  it('shows a private entry only to a token whose segments meet the entry\'s', async () => {
    const realm = await makeRealm(h);
    const ana = await makeRealmUser(h, realm.uid, { first_name: 'Ana' });
    const bob = await makeRealmUser(h, realm.uid, { first_name: 'Bob' });
    const segment = await h.request({ method: 'POST', url: '/api/admin/segments', payload: { name: 'Anas', realm_uid: realm.uid, filters: { attribute: 'first_name', operator: 'eq', value: 'Ana' } } });
    expect(segment.statusCode, segment.body).toBe(201);
    const other = await h.request({ method: 'POST', url: '/api/admin/segments', payload: { name: 'Bobs', realm_uid: realm.uid, filters: { attribute: 'first_name', operator: 'eq', value: 'Bob' } } });
    const { space: s5, base: b5 } = await makeSpaceAndType(h);
    await makeEntry(h, s5, 'product', { name: 'Public' });
    const secret = await makeEntry(h, s5, 'product', { name: 'For Anas', private: true, segmentUuids: [segment.json().uuid] });
    const nobody = await h.request({ method: 'POST', url: '/api/admin/segments', payload: { name: 'Zeds', realm_uid: realm.uid, filters: { attribute: 'first_name', operator: 'eq', value: 'Zed' } } });
    await makeEntry(h, s5, 'product', { name: 'For nobody', private: true, segmentUuids: [nobody.json().uuid] });

    const tokenFor = async (user: { email: string }) => {
      const cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
      const res = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/delivery_token`, token: null, headers: { cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { token: string; expires_at: string };
    };
    const anaToken = await tokenFor(ana);
    expect(anaToken.expires_at).toBe(new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000 + 3_600_000).toISOString());
    const claims = decodeJwt(anaToken.token);
    expect(claims).toMatchObject({ realm: realm.uid, segments: [segment.json().uuid], sub: ana.uuid });
    const bobToken = await tokenFor(bob);
    expect(decodeJwt(bobToken.token).segments).toEqual([other.json().uuid]);
    expect(decodeJwt(anaToken.token).exp! - decodeJwt(anaToken.token).iat!).toBe(3600);

    expect(names(await get(b5))).toEqual(['Public']);
    expect(names(await get(b5, { 'delivery-token': anaToken.token }))).toEqual(['For Anas', 'Public']);
    expect(names(await get(`${b5}?delivery_token=${anaToken.token}`))).toEqual(['For Anas', 'Public']);
    expect(names(await get(b5, { 'delivery-token': bobToken.token }))).toEqual(['Public']);
    expect((await get(`${b5}/${secret}`)).statusCode).toBe(404);
    expect((await get(`${b5}/${secret}`, { 'delivery-token': bobToken.token })).statusCode).toBe(404);
    const shownToAna = await get(`${b5}/${secret}`, { 'delivery-token': anaToken.token });
    expect(shownToAna.json().meta).toMatchObject({ name: 'For Anas', private: true });
    // What a token shows is its holder's: no shared cache may keep it for the next visitor.
    expect(shownToAna.headers['cache-control']).toBe('private, no-cache');
    expect((await get(b5, { 'delivery-token': anaToken.token })).headers['cache-control']).toBe('private, no-cache');
    expect((await get(b5)).headers['cache-control']).toBe('public, no-cache');

    // Embedded references follow the same rule.
    const linker = await makeEntry(h, s5, 'product', { name: 'Linker', fields: { related: { uuid: secret } } });
    expect((await get(`${b5}/${linker}?include=1`)).json().fields.related).toEqual({ uuid: secret });
    expect((await get(`${b5}/${linker}?include=1`, { 'delivery-token': anaToken.token })).json().fields.related.meta.name).toBe('For Anas');

    // Forged (signed with another key, or altered) and expired tokens are refused.
    const invalid = { error: { delivery_token: ['The delivery token is not valid or has expired'] } };
    const [head, payload, signature] = anaToken.token.split('.');
    const altered = `${head}.${Buffer.from(JSON.stringify({ ...claims, segments: [other.json().uuid] })).toString('base64url')}.${signature}`;
    for (const token of [altered, 'garbage', `${head}.${payload}.`, 'x'.repeat(20_000)]) {
      const res = await get(b5, { 'delivery-token': token });
      expect(res.statusCode, token.slice(0, 40)).toBe(401);
      expect(res.json()).toEqual(invalid);
    }
    h.clock.advanceMinutes(61);
    const expired = await get(`${b5}/${secret}`, { 'delivery-token': anaToken.token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(invalid);
  });

  it('gives a token only to a signed-in user of the realm', async () => {
    const realm = await makeRealm(h);
    const res = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/delivery_token`, token: null });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { user_session: 'user not found' } });
    expect((await h.request({ method: 'GET', url: '/api/customers/realms/nope/delivery_token', token: null })).statusCode).toBe(404);
  });
});
