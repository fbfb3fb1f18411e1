import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realmCookieName, startRealmSession } from '../../src/realms/sessions.js';
import { findRealmByUid } from '../../src/realms/realms.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

describe('realm user avatars', () => {
  let h: Harness;
  let base: string;
  let dataDir: string;
  let realm: { uid: string };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-avatars-'));
    h = await startHarness({ DATA_DIR: dataDir });
    base = await listen(h);
    realm = await makeRealm(h);
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function upload(userId: number, name: string | null, content: Buffer, token: string | null = h.ownerToken, uid = realm.uid) {
    const form = new FormData();
    if (name !== null) form.append('file', new Blob([new Uint8Array(content)]), name);
    return fetch(`${base}/api/admin/customers/${uid}/users/${userId}/avatar`, {
      method: 'PUT', body: form, headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  }
  const stored = (url: string) => path.join(dataDir, 'uploads', 'avatars', url.slice('/uploads/avatars/'.length));

  it('stores an image, reuses the original for the renditions and serves it', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const res = await upload(user.id, 'me.png', PNG);
    expect(res.status).toBe(200);
    const { avatar } = await res.json();
    expect(avatar).toEqual({
      id: expect.any(Number), file_name: 'me.png',
      url_original: expect.stringMatching(/^\/uploads\/avatars\/[0-9a-f-]{36}\.png$/),
      url_small: avatar.url_original, url_medium: avatar.url_original,
    });
    expect(Number.isInteger(avatar.id)).toBe(true);
    const served = await fetch(`${base}${avatar.url_original}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);

    // The customers /me shows it too.
    const row = (await findRealmByUid(h.ctx, realm.uid))!;
    const cookie = `${realmCookieName(realm.uid)}=${(await startRealmSession(h.ctx, row, user.id)).secret}`;
    const me = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie } });
    expect(me.json().avatar).toEqual(avatar);

    // A new avatar replaces the file; deleting the user removes it.
    const second = await (await upload(user.id, 'again.GIF', GIF)).json();
    expect(second.avatar.url_original).toMatch(/\.gif$/);
    expect(fs.existsSync(stored(avatar.url_original))).toBe(false);
    expect(fs.existsSync(stored(second.avatar.url_original))).toBe(true);
    expect((await fetch(`${base}${avatar.url_original}`)).status).toBe(404);
    await h.request({ method: 'DELETE', url: `/api/admin/customers/${realm.uid}/users/${user.id}` });
    expect(fs.existsSync(stored(second.avatar.url_original))).toBe(false);
  });

  it('removes an avatar', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const { avatar } = await (await upload(user.id, 'me.jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64)]))).json();
    expect(avatar.url_original).toMatch(/\.jpg$/);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/${realm.uid}/users/${user.id}/avatar` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users/${user.id}` })).json().avatar).toBeNull();
    expect(fs.existsSync(stored(avatar.url_original))).toBe(false);
  });

  it('refuses what is not an allowed image whose content matches its extension, naming the file', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const cases: [string, Buffer, string][] = [
      ['photo.exe', Buffer.from('MZ\x90\x00'), 'photo.exe: extension is not allowed (an avatar is one of jpg, png, gif, webp)'],
      ['drawing.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'drawing.svg: extension is not allowed (an avatar is one of jpg, png, gif, webp)'],
      ['fake.png', Buffer.from('just some text, not an image'), 'fake.png: content does not match the extension'],
      ['gif.png', GIF, 'gif.png: content does not match the extension'],
      ['noextension', PNG, 'noextension: extension is not allowed (an avatar is one of jpg, png, gif, webp)'],
    ];
    for (const [name, content, message] of cases) {
      const res = await upload(user.id, name, content);
      expect(res.status, name).toBe(422);
      expect((await res.json()).errors, name).toEqual([message]);
    }
    const none = await upload(user.id, null, PNG);
    expect(none.status).toBe(422);
    expect((await none.json()).details).toEqual([{ field: 'file', messages: ["can't be blank"] }]);
    const json = await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${user.id}/avatar`, payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    expect((await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users/${user.id}` })).json().avatar).toBeNull();
  });

  it('keeps to the account\'s size limit and allowed extensions', async () => {
    const user = await makeRealmUser(h, realm.uid);
    await h.request({ method: 'PUT', url: '/api/admin/account', payload: { upload_max_bytes: 100, allowed_extensions: ['png', 'pdf'] } });
    try {
      const big = await upload(user.id, 'big.png', Buffer.concat([PNG, Buffer.alloc(200)]));
      expect(big.status).toBe(422);
      expect((await big.json()).errors).toEqual(['big.png: is larger than the maximum of 100 bytes']);
      const gif = await upload(user.id, 'small.gif', GIF);
      expect((await gif.json()).errors).toEqual(['small.gif: extension is not allowed (an avatar is one of png)']);
      expect((await upload(user.id, 'small.png', PNG)).status).toBe(200);
    } finally {
      await h.request({ method: 'PUT', url: '/api/admin/account', payload: { upload_max_bytes: 10 * 1024 * 1024, allowed_extensions: ['jpg', 'jpeg', 'png', 'gif', 'webp'] } });
    }
  });

  it('answers 401, 403 to a role of another realm, and 404', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const other = await makeRealm(h);
    const foreign = await memberToken(h, [{ key: 'realm_admin', target: other.uid }]);
    expect((await upload(user.id, 'me.png', PNG, null)).status).toBe(401);
    expect((await upload(user.id, 'me.png', PNG, foreign)).status).toBe(403);
    expect((await upload(user.id, 'me.png', PNG, h.ownerToken, other.uid)).status).toBe(404);
    expect((await upload(999999, 'me.png', PNG)).status).toBe(404);
    expect((await fetch(`${base}/uploads/avatars/../../etc/passwd`)).status).toBe(404);
    expect((await fetch(`${base}/uploads/avatars/00000000-0000-0000-0000-000000000000.png`)).status).toBe(404);
  });
});
