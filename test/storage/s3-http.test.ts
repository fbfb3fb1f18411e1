import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Storage } from '../../src/storage/s3.js';
import { makeSpace } from '../helpers/content.js';
import { usingPostgres } from '../helpers/database.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { startS3, type S3Server } from '../helpers/s3.js';
import { listen } from '../helpers/server.js';
import { pdf, png, storedFiles } from '../uploads/files.js';

const MB = 1024 * 1024;

describe('uploads kept in S3-compatible storage (STORAGE_URL)', () => {
  let s3: S3Server;
  let h: Harness;
  let base: string;
  let peer: { app: FastifyInstance; close(): Promise<void> } | null;

  beforeAll(async () => {
    s3 = await startS3();
    h = await startHarness({ STORAGE_URL: s3.storageUrl });
    base = await listen(h);
    // On PostgreSQL a second server process on the same database reads what the first stored.
    peer = usingPostgres() ? await h.peer() : null;
  });
  afterAll(async () => {
    await peer?.close();
    await h?.close();
    await s3?.close();
  });

  /** Every reader: this app over HTTP, and the second process when there is one. */
  async function expectServed(url: string, headers: Record<string, string>, content: Buffer) {
    const served = await fetch(`${base}${url}`, { headers });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(content);
    if (peer) {
      const other = await peer.app.inject({ method: 'GET', url, headers });
      expect(other.statusCode).toBe(200);
      expect(other.rawPayload).toEqual(content);
    }
  }
  const post = (url: string, name: string, content: Buffer, headers: Record<string, string>, method = 'POST') => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)]), name);
    return fetch(`${base}${url}`, { method, body: form, headers });
  };
  const owner = () => ({ authorization: `Bearer ${h.ownerToken}` });

  it('stores an avatar, a private attachment and a content asset in the bucket, none on the disk, and serves them', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const image = png(24, 24);
    const avatarRes = await post(`/api/admin/customers/${realm.uid}/users/${user.id}/avatar`, 'me.png', image, owner(), 'PUT');
    expect(avatarRes.status).toBe(200);
    await expectServed((await avatarRes.json()).avatar.url_original, {}, image);

    const cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const document = pdf();
    const attachmentRes = await post(`/api/customers/realms/${realm.uid}/private_upload/answer`, 'passport.pdf', document, { cookie });
    expect(attachmentRes.status).toBe(200);
    const attachment = await attachmentRes.json();
    await expectServed(attachment.url, { cookie }, document);
    expect((await fetch(`${base}${attachment.url}`)).status).toBe(401);

    const space = await makeSpace(h);
    const assetRes = await post(`/api/admin/content/spaces/${space.uid}/assets`, 'cover.png', image, owner());
    expect(assetRes.status).toBe(201);
    const asset = await assetRes.json();
    await expectServed(new URL(asset.url).pathname, {}, image);

    expect(storedFiles(h)).toEqual([]);
    const keys = s3.keys();
    expect(keys).toContain(`attachments/${attachment.uuid}`);
    // The avatar with its two renditions, the attachment, the asset.
    expect(keys).toHaveLength(5);
    const bucket = s3Storage(h.config.storage!);
    expect((await bucket.get(`attachments/${attachment.uuid}`))?.size).toBe(document.length);

    // Deleted through the API: gone from the bucket, 404 for every reader.
    expect((await fetch(`${base}/api/customers/realms/${realm.uid}/private_upload/answer/${attachment.uuid}`, { method: 'DELETE', headers: { cookie } })).status).toBe(200);
    expect(await bucket.get(`attachments/${attachment.uuid}`)).toBeNull();
    expect(s3.keys()).toEqual(keys.filter((key) => !key.startsWith('attachments/')));
    expect((await fetch(`${base}${attachment.url}`, { headers: { cookie } })).status).toBe(404);
  });

  it('keeps nothing of a file the checks refuse', async () => {
    const space = await makeSpace(h);
    const before = s3.keys();
    const res = await post(`/api/admin/content/spaces/${space.uid}/assets`, 'cover.png', Buffer.from('not an image at all'), owner());
    expect(res.status).toBe(422);
    expect(s3.keys()).toEqual(before);

    // Past the account's limit after several parts went up: the upload is abandoned, the bucket unchanged.
    const limit = async (bytes: number) => expect((await h.request({ method: 'PUT', url: '/api/admin/account', payload: { upload_max_bytes: bytes } })).statusCode).toBe(200);
    await limit(12 * MB);
    try {
      const large = Buffer.concat([pdf(), Buffer.alloc(16 * MB, 'x')]);
      const tooLarge = await post(`/api/admin/content/spaces/${space.uid}/assets`, 'big.pdf', large, owner());
      expect(tooLarge.status).toBe(422);
      expect((await tooLarge.json()).errors).toEqual([`big.pdf: is larger than the maximum of ${12 * MB} bytes`]);
    } finally {
      await limit(10 * MB);
    }
    expect(s3.keys()).toEqual(before);
  });
});
