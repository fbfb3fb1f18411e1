import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A photo as a phone takes it: a JPEG with EXIF metadata (where it was taken, say). */
const PHOTO = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 200, g: 40, b: 40 } } })
  .jpeg().withExif({ IFD0: { Copyright: 'Somebody', ImageDescription: 'Taken at home' } }).toBuffer();

/** A PNG whose header claims width × height pixels, with the content of a 1 × 1 image: a decompression bomb's shape. */
function pngClaiming(width: number, height: number): Buffer {
  const image = Buffer.from(PNG);
  image.writeUInt32BE(width, 16);
  image.writeUInt32BE(height, 20);
  image.writeUInt32BE(crc32(image.subarray(12, 29)), 29);
  return image;
}

/** Every file under DATA_DIR/uploads, temporary ones included, relative to it. */
function storedFiles(h: Harness): string[] {
  const root = path.join(h.config.dataDir, 'uploads');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** A multipart body written by hand, so that it can be broken on purpose. */
function part(name: string, fileName: string | null, content: Buffer | string, boundary = 'XyZ'): Buffer {
  const disposition = `form-data; name="${name}"${fileName === null ? '' : `; filename="${fileName}"`}`;
  const type = fileName === null ? '' : 'Content-Type: image/png\r\n';
  return Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
}
const closing = (boundary = 'XyZ') => Buffer.from(`--${boundary}--\r\n`);

describe('realm user avatars', () => {
  let h: Harness;
  let base: string;
  let realm: { uid: string };

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    realm = await makeRealm(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  function upload(userId: number, name: string | null, content: Buffer, token: string | null = h.ownerToken, uid = realm.uid) {
    const form = new FormData();
    if (name !== null) form.append('file', new Blob([new Uint8Array(content)]), name);
    return fetch(`${base}/api/admin/customers/${uid}/users/${userId}/avatar`, {
      method: 'PUT', body: form, headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  }
  const stored = (url: string) => path.join(h.config.dataDir, 'uploads', 'avatars', url.slice('/uploads/avatars/'.length));

  it('stores an image with its 64- and 256-pixel WebP renditions, without metadata, and serves them', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const res = await upload(user.id, 'photo.jpg', PHOTO);
    expect(res.status).toBe(200);
    const { avatar: photo } = await res.json();
    const id = photo.url_original.slice('/uploads/avatars/'.length, -'.jpg'.length);
    expect(photo).toEqual({
      id: expect.any(Number), file_name: 'photo.jpg', url_original: expect.stringMatching(/^\/uploads\/avatars\/[0-9a-f-]{36}\.jpg$/),
      url_small: `/uploads/avatars/${id}-64.webp`, url_medium: `/uploads/avatars/${id}-256.webp`,
    });
    for (const [url, size] of [[photo.url_small, 64], [photo.url_medium, 256]] as const) {
      const served = await fetch(`${base}${url}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif }).toEqual({ format: 'webp', width: size, height: size, exif: undefined });
    }
    expect((await sharp(PHOTO).metadata()).exif).toBeDefined();
    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/${realm.uid}/users/${user.id}/avatar` })).statusCode).toBe(204);
    for (const url of [photo.url_original, photo.url_small, photo.url_medium]) expect(fs.existsSync(stored(url)), url).toBe(false);
  });

  it('refuses an image it cannot read, or one claiming too many pixels, before storing anything', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const broken = await upload(user.id, 'broken.png', Buffer.concat([PNG.subarray(0, 40), Buffer.alloc(40, 7)]));
    expect(broken.status).toBe(422);
    expect((await broken.json()).errors).toEqual(['broken.png: cannot be read as an image']);
    const bomb = await upload(user.id, 'bomb.png', pngClaiming(20_000, 20_000));
    expect(bomb.status).toBe(422);
    expect((await bomb.json()).errors).toEqual(['bomb.png: is larger than 40,000,000 pixels']);
    expect(storedFiles(h)).toEqual([]);
  });

  it('stores an image and serves it', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const res = await upload(user.id, 'me.png', PNG);
    expect(res.status).toBe(200);
    const { avatar } = await res.json();
    expect(avatar).toMatchObject({ id: expect.any(Number), file_name: 'me.png', url_original: expect.stringMatching(/^\/uploads\/avatars\/[0-9a-f-]{36}\.png$/) });
    expect(Number.isInteger(avatar.id)).toBe(true);
    const served = await fetch(`${base}${avatar.url_original}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);

    // The customers /me shows it too.
    const cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
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
    const { avatar } = await (await upload(user.id, 'me.jpeg', PHOTO)).json();
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

  describe('stored files', () => {
    // Each test starts from an empty store and must leave it empty.
    const emptyStore = () => fs.rmSync(path.join(h.config.dataDir, 'uploads'), { recursive: true, force: true });
    beforeEach(emptyStore);
    afterEach(() => {
      const left = storedFiles(h);
      emptyStore();
      expect(left).toEqual([]);
    });

    const avatarUrl = (userId: number) => `/api/admin/customers/${realm.uid}/users/${userId}/avatar`;
    const userUrl = (userId: number) => `/api/admin/customers/${realm.uid}/users/${userId}`;
    const sendRaw = (userId: number, contentType: string, payload: Buffer) =>
      h.request({ method: 'PUT', url: avatarUrl(userId), headers: { 'content-type': contentType }, payload });

    it('keeps exactly one image after 40 concurrent uploads for one user: the one the avatar names, served', async () => {
      const user = await makeRealmUser(h, realm.uid);
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => upload(user.id, `me-${i}.png`, PNG)));
      expect(answers.map((res) => res.status)).toEqual(Array(40).fill(200));
      await Promise.all(answers.map((res) => res.arrayBuffer()));

      const { avatar } = (await h.request({ method: 'GET', url: userUrl(user.id) })).json();
      const files = [avatar.url_original, avatar.url_small, avatar.url_medium].map((url: string) => path.join('avatars', url.slice('/uploads/avatars/'.length)));
      expect(storedFiles(h).sort()).toEqual(files.sort());
      const served = await fetch(`${base}${avatar.url_original}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('content-length')).toBe(String(PNG.length));
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);

      expect((await h.request({ method: 'DELETE', url: avatarUrl(user.id) })).statusCode).toBe(204);
      expect((await fetch(`${base}${avatar.url_original}`)).status).toBe(404);
    });

    it('leaves no image behind when a user is deleted while uploads for it run', async () => {
      const user = await makeRealmUser(h, realm.uid);
      const [deletion, ...uploads] = await Promise.all([
        h.request({ method: 'DELETE', url: userUrl(user.id) }),
        ...Array.from({ length: 20 }, (_, i) => upload(user.id, `me-${i}.png`, PNG)),
      ]);
      expect(deletion.statusCode).toBe(204);
      // An upload answers 200 when it was committed before the deletion, 404 when it came after.
      for (const res of uploads) expect([200, 404]).toContain(res.status);
      await Promise.all(uploads.map((res) => res.arrayBuffer()));
    });

    it('removes the image with the avatar, with the user, and with the realm', async () => {
      const user = await makeRealmUser(h, realm.uid);
      expect((await upload(user.id, 'me.png', PNG)).status).toBe(200);
      expect(storedFiles(h)).toHaveLength(3);
      expect((await h.request({ method: 'DELETE', url: avatarUrl(user.id) })).statusCode).toBe(204);
      expect(storedFiles(h)).toEqual([]);

      expect((await upload(user.id, 'me.png', PNG)).status).toBe(200);
      expect(storedFiles(h)).toHaveLength(3);
      expect((await h.request({ method: 'DELETE', url: userUrl(user.id) })).statusCode).toBe(204);
      expect(storedFiles(h)).toEqual([]);

      const doomed = await makeRealm(h);
      const users = await Promise.all([1, 2, 3].map(() => makeRealmUser(h, doomed.uid)));
      for (const each of users) expect((await upload(each.id, 'me.png', PNG, h.ownerToken, doomed.uid)).status).toBe(200);
      expect(storedFiles(h)).toHaveLength(9);
      expect((await h.request({ method: 'DELETE', url: `/api/admin/realms/${doomed.uid}` })).statusCode).toBe(204);
    });

    it('stores nothing for a refused upload', async () => {
      const user = await makeRealmUser(h, realm.uid);
      const refused = await upload(user.id, 'fake.png', Buffer.from('not an image'));
      expect(refused.status).toBe(422);
      expect((await refused.json()).errors).toEqual(['fake.png: content does not match the extension']);
      expect(storedFiles(h)).toEqual([]);
      // A refused replacement keeps the current image.
      expect((await upload(user.id, 'me.png', PNG)).status).toBe(200);
      expect((await upload(user.id, 'photo.exe', PNG)).status).toBe(422);
      expect(storedFiles(h)).toHaveLength(3);
      expect((await h.request({ method: 'DELETE', url: userUrl(user.id) })).statusCode).toBe(204);
    });

    it('answers a broken multipart form with a 4xx, never a 500, and stores nothing', async () => {
      const user = await makeRealmUser(h, realm.uid);
      const whole = Buffer.concat([part('file', 'me.png', PNG), closing()]);
      const form = 'multipart/form-data; boundary=XyZ';
      const cases: [string, string, Buffer, number, string][] = [
        ['no boundary', 'multipart/form-data', whole, 400, 'The multipart/form-data content type has no boundary'],
        ['another boundary than the body\'s', 'multipart/form-data; boundary=other', whole, 400, 'The multipart body ends before its closing boundary'],
        ['cut inside the file', form, whole.subarray(0, 100), 400, 'The multipart body is malformed'],
        ['cut after the file, before any boundary', form, part('file', 'me.png', PNG), 400, 'The multipart body is malformed'],
        ['cut after the boundary', form, Buffer.concat([part('file', 'me.png', PNG), Buffer.from('--XyZ')]), 400, 'The multipart body'],
        ['cut after the boundary line', form, Buffer.concat([part('file', 'me.png', PNG), Buffer.from('--XyZ\r\n')]), 400, 'The multipart body'],
        ['cut inside the next part\'s headers', form, Buffer.concat([part('file', 'me.png', PNG), Buffer.from('--XyZ\r\nContent-Disp')]), 400, 'The multipart body'],
        ['empty', form, Buffer.alloc(0), 400, 'The multipart body ends before its closing boundary'],
        ['not multipart at all', form, Buffer.from('hello'), 400, 'The multipart body ends before its closing boundary'],
        ['two files', form, Buffer.concat([part('file', 'a.png', PNG), part('file', 'b.png', PNG), closing()]), 413, 'Send one file only, in the part named file'],
        ['too many fields', form, Buffer.concat([...Array.from({ length: 30 }, (_, i) => part(`f${i}`, null, 'x')), part('file', 'me.png', PNG), closing()]), 413, 'The form has too many parts'],
        ['a plain field named file', form, Buffer.concat([part('file', null, 'hello'), closing()]), 422, 'File must be a file part, not a plain field'],
        ['a NUL in the file name', form, Buffer.concat([part('file', 'me\u0000.png', PNG), closing()]), 422, 'File name must not contain a NUL character'],
        ['a prototype field name', form, Buffer.concat([part('__proto__', null, 'x'), part('file', 'me.png', PNG), closing()]), 400, 'The multipart body is malformed'],
      ];
      for (const [what, contentType, payload, status, message] of cases) {
        const res = await sendRaw(user.id, contentType, payload);
        expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
        expect(res.json().errors[0], what).toContain(message);
        expect(storedFiles(h), what).toEqual([]);
      }
      // The same form, whole, is taken; an epilogue after the closing boundary too.
      expect((await sendRaw(user.id, form, Buffer.concat([whole, Buffer.from('an epilogue')]))).statusCode).toBe(200);
      expect((await h.request({ method: 'GET', url: userUrl(user.id) })).json().avatar.file_name).toBe('me.png');
      expect((await h.request({ method: 'DELETE', url: userUrl(user.id) })).statusCode).toBe(204);
    });

    it('declares the failures of an upload in the catalog', async () => {
      const catalog = (await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json' })).json();
      const put = catalog.paths['/customers/{realm_uid}/users/{id}/avatar'].put;
      expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(['200', '400', '413', '415', '422']));
      expect(Object.keys(put.requestBody.content)).toEqual(['multipart/form-data']);
    });
  });
});
