import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpace, makeType } from '../helpers/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { memberToken } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';
import { pdf, png, storedFiles } from '../uploads/files.js';
import { entryClient } from './entry-helpers.js';

describe('content assets', () => {
  let h: Harness;
  let base: string;
  let space: { uid: string };

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    space = await makeSpace(h);
  });
  afterAll(async () => { await h?.close(); });

  const assetsUrl = (uid = space.uid) => `${base}/api/admin/content/spaces/${uid}/assets`;
  const assetFiles = () => storedFiles(h, 'content-assets');

  function upload(name: string | null, content: Buffer, fields: Record<string, string> = {}, options: { token?: string | null; uid?: string } = {}) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    if (name !== null) form.append('file', new Blob([new Uint8Array(content)]), name);
    const token = options.token === undefined ? h.ownerToken : options.token;
    return fetch(assetsUrl(options.uid), { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  }

  async function uploaded(name: string, content: Buffer, fields: Record<string, string> = {}) {
    const res = await upload(name, content, fields);
    expect(res.status, await res.clone().text()).toBe(201);
    return res.json();
  }

  const admin = (method: string, url: string, token = h.ownerToken) => fetch(url, { method, headers: { authorization: `Bearer ${token}` } });

  it('uploads an image, answers it with its public URL, and serves it there to anyone, cached for good', async () => {
    const image = png(8, 8);
    const asset = await uploaded('Cover photo.png', image, { title: ' The cover ' });
    expect(asset).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), space: space.uid, file_name: 'Cover photo.png', content_type: 'image/png',
      size: image.length, title: 'The cover', url: `${base}/api/content/spaces/${space.uid}/assets/${asset.uuid}/Cover%20photo.png`,
      created_at: h.clock.now().toISOString(), updated_at: h.clock.now().toISOString(),
    });
    const file = await fetch(asset.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(image);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-disposition')).toBe('inline; filename="Cover photo.png"; filename*=UTF-8\'\'Cover%20photo.png');
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");

    const shown = await admin('GET', `${assetsUrl()}/${asset.uuid}`);
    expect(await shown.json()).toEqual(asset);
    const listed = await (await admin('GET', `${assetsUrl()}?only[]=uuid&only[]=file_name`)).json();
    expect(listed.assets).toContainEqual({ uuid: asset.uuid, file_name: 'Cover photo.png' });
    expect(listed.meta).toMatchObject({ current_page: 1, per_page: 10 });
  });

  it('serves every other file as a download, never inline', async () => {
    const doc = await uploaded('terms.pdf', pdf());
    const text = await uploaded('notes.txt', Buffer.from('plain words\n'));
    for (const [asset, type] of [[doc, 'application/pdf'], [text, 'text/plain; charset=utf-8']]) {
      const file = await fetch(asset.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(type);
      expect(file.headers.get('content-disposition')).toMatch(/^attachment; /);
    }
  });

  it('answers 404 at a URL that is not exactly an asset\'s', async () => {
    const asset = await uploaded('exact.png', png());
    const other = await makeSpace(h);
    for (const url of [
      `${base}/api/content/spaces/${space.uid}/assets/${asset.uuid}/other.png`,
      `${base}/api/content/spaces/${other.uid}/assets/${asset.uuid}/exact.png`,
      `${base}/api/content/spaces/nope/assets/${asset.uuid}/exact.png`,
      `${base}/api/content/spaces/${space.uid}/assets/not-a-uuid/exact.png`,
      `${base}/api/content/spaces/${space.uid}/assets/00000000-0000-4000-8000-000000000000/exact.png`,
    ]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(404);
      expect((await res.json()).errors).toBeDefined();
    }
    expect((await admin('GET', `${assetsUrl(other.uid)}/${asset.uuid}`)).status).toBe(404);
  });

  it('refuses files the checks refuse, keeping nothing', async () => {
    const before = assetFiles();
    const cases: [string | null, Buffer, string[]][] = [
      ['page.html', Buffer.from('<html><script>alert(1)</script></html>'), ['page.html: extension is not allowed']],
      ['logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), ['logo.svg: extension is not allowed']],
      ['fake.png', Buffer.from('not an image at all'), ['fake.png: content is not a png file']],
      [null, Buffer.alloc(0), ["File can't be blank"]],
    ];
    for (const [name, content, errors] of cases) {
      const res = await upload(name, content);
      expect(res.status, String(name)).toBe(422);
      const body = await res.json();
      if (name === 'fake.png') expect(body.errors[0]).toMatch(/^fake\.png: /);
      else expect(body.errors).toEqual(errors);
    }
    const longTitle = await upload('ok.png', png(), { title: 'x'.repeat(256) });
    expect(longTitle.status).toBe(422);
    const nulTitle = await upload('ok.png', png(), { title: 'a\u0000b' });
    expect(nulTitle.status).toBe(422);
    expect(assetFiles()).toEqual(before);
  });

  it('keeps to the account\'s upload limit', async () => {
    const set = async (bytes: number) => expect((await h.request({ method: 'PUT', url: '/api/admin/account', payload: { upload_max_bytes: bytes } })).statusCode).toBe(200);
    await set(1000);
    try {
      const before = assetFiles();
      expect((await upload('exact.txt', Buffer.alloc(1000, 'a'))).status).toBe(201);
      const over = await upload('over.txt', Buffer.alloc(1001, 'a'));
      expect(over.status).toBe(422);
      expect((await over.json()).errors).toEqual(['over.txt: is larger than the maximum of 1000 bytes']);
      expect(assetFiles()).toHaveLength(before.length + 1);
    } finally {
      await set(10 * 1024 * 1024);
    }
  });

  it('deletes an asset with its file: its URL answers 404 from then on', async () => {
    const asset = await uploaded('gone.png', png());
    const before = assetFiles();
    expect(before).toContain(asset.uuid);
    const res = await admin('DELETE', `${assetsUrl()}/${asset.uuid}`);
    expect(res.status).toBe(204);
    expect(assetFiles()).not.toContain(asset.uuid);
    expect(assetFiles()).toHaveLength(before.length - 1);
    expect((await fetch(asset.url)).status).toBe(404);
    expect((await admin('GET', `${assetsUrl()}/${asset.uuid}`)).status).toBe(404);
    expect((await admin('DELETE', `${assetsUrl()}/${asset.uuid}`)).status).toBe(404);
  });

  it('is what an asset field of an entry refers to', async () => {
    const asset = await uploaded('hero.png', png());
    const type = await makeType(h, space.uid, { fields: [{ name: 'hero', type: 'asset' }] });
    const entry = await entryClient(h, space.uid, type.uid).created({ name: 'With a hero', fields: { hero: { uuid: asset.uuid } } });
    expect(entry.fields.hero).toEqual({ uuid: asset.uuid });
  });

  it('lets space roles do what they carry, in their space only', async () => {
    const viewer = await memberToken(h, [{ key: 'space_viewer', target: space.uid }]);
    const writer = await memberToken(h, [{ key: 'space_writer', target: space.uid }]);
    const elsewhere = await memberToken(h, [{ key: 'space_admin', target: (await makeSpace(h)).uid }]);
    expect((await upload('v.png', png(), {}, { token: viewer })).status).toBe(403);
    expect((await upload('e.png', png(), {}, { token: elsewhere })).status).toBe(403);
    expect((await upload('n.png', png(), {}, { token: null })).status).toBe(401);
    const written = await upload('w.png', png(), {}, { token: writer });
    expect(written.status).toBe(201);
    const { uuid } = await written.json();
    expect((await admin('GET', assetsUrl(), viewer)).status).toBe(200);
    expect((await admin('GET', assetsUrl(), elsewhere)).status).toBe(403);
    expect((await admin('DELETE', `${assetsUrl()}/${uuid}`, viewer)).status).toBe(403);
    expect((await admin('DELETE', `${assetsUrl()}/${uuid}`, writer)).status).toBe(204);
  });

  it('answers malformed forms and unknown spaces with documented 4xx', async () => {
    expect((await upload('x.png', png(), {}, { uid: 'nope' })).status).toBe(404);
    const notMultipart = await fetch(assetsUrl(), { method: 'POST', headers: { authorization: `Bearer ${h.ownerToken}`, 'content-type': 'application/json' }, body: '{}' });
    expect(notMultipart.status).toBe(415);
    const noBoundary = await fetch(assetsUrl(), { method: 'POST', headers: { authorization: `Bearer ${h.ownerToken}`, 'content-type': 'multipart/form-data' }, body: 'x' });
    expect(noBoundary.status).toBe(400);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png())]), 'a.png');
    form.append('file', new Blob([new Uint8Array(png())]), 'b.png');
    const before = assetFiles();
    const two = await fetch(assetsUrl(), { method: 'POST', body: form, headers: { authorization: `Bearer ${h.ownerToken}` } });
    expect(two.status).toBe(413);
    expect(assetFiles()).toEqual(before);
  });
});
