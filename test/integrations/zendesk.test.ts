import fs from 'node:fs';
import path from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { usingPostgres } from '../helpers/database.js';
import { zendeskIntegrations } from '../../src/tables/zendesk.js';
import { makeRealm, makeRealmUser, memberToken, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';

const SECRET = 'zendesk-shared-secret-0123456789abcdef-XYZ';

describe('Zendesk integration', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const settingsPath = (uid: string) => `/api/admin/customers/${uid}/integrations/zendesk`;
  const put = (uid: string, payload: Record<string, unknown>, token?: string | null) =>
    h.request({ method: 'PUT', url: settingsPath(uid), payload, token });

  /** A realm with a signed-in user: the user, and the realm session cookie. */
  async function signedIn(realmUid: string) {
    const user = await makeRealmUser(h, realmUid, { first_name: 'Grace', last_name: 'Hopper', username: `grace${Date.now() % 100000}` });
    return { user, cookie: await signInAtLoginPage(h, realmUid, user.email, REALM_USER_PASSWORD) };
  }

  it('signs a JWT for the signed-in user with the shared secret, header kid and every claim', async () => {
    const realm = await makeRealm(h);
    const configured = await put(realm.uid, { subdomain: 'acme', key_id: 'app_123', shared_secret: SECRET });
    expect(configured.statusCode, configured.body).toBe(200);
    expect(configured.json()).toEqual({ subdomain: 'acme', key_id: 'app_123', configured: true, created_at: expect.any(String), updated_at: expect.any(String) });
    const { user, cookie } = await signedIn(realm.uid);

    const res = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/integrations/zendesk_token`, token: null, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json())).toEqual(['token']);
    const { token } = res.json();
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET), { algorithms: ['HS256'], currentDate: h.clock.now() });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT', kid: 'app_123' });
    expect(payload).toEqual({
      external_id: user.uuid, name: 'Grace Hopper', email: user.email, email_verified: true, scope: 'user',
      iat: Math.floor(h.clock.now().getTime() / 1000), exp: Math.floor(h.clock.now().getTime() / 1000) + 300, jti: expect.any(String),
    });
    expect(payload.exp! - payload.iat!).toBe(300);

    // Another token has another jti; a wrong secret does not verify.
    const again = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/integrations/zendesk_token`, token: null, headers: { cookie } });
    const second = await jwtVerify(again.json().token, new TextEncoder().encode(SECRET), { currentDate: h.clock.now() });
    expect(second.payload.jti).not.toBe(payload.jti);
    await expect(jwtVerify(token, new TextEncoder().encode(`${SECRET}x`), { currentDate: h.clock.now() })).rejects.toThrow();
    // Five minutes later, by the injected clock, it has expired.
    h.clock.advanceMinutes(6);
    await expect(jwtVerify(token, new TextEncoder().encode(SECRET), { currentDate: h.clock.now() })).rejects.toThrow(/exp/);
  });

  it('answers the Zendesk single sign-on address carrying a fresh token', async () => {
    const realm = await makeRealm(h);
    await put(realm.uid, { subdomain: 'help-desk-1', key_id: 'kid-9', shared_secret: SECRET });
    const { user, cookie } = await signedIn(realm.uid);
    const res = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/integrations/zendesk_sso_url`, token: null, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().url);
    expect(`${url.origin}${url.pathname}`).toBe('https://help-desk-1.zendesk.com/access/jwt');
    expect([...url.searchParams.keys()]).toEqual(['jwt']);
    const jwt = url.searchParams.get('jwt')!;
    expect(decodeProtectedHeader(jwt).kid).toBe('kid-9');
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(SECRET), { currentDate: h.clock.now() });
    expect(payload.external_id).toBe(user.uuid);
  });

  it('answers 404 with a clear error when the realm has no integration, and 401 without a credential', async () => {
    const realm = await makeRealm(h);
    const { cookie } = await signedIn(realm.uid);
    for (const operation of ['zendesk_token', 'zendesk_sso_url']) {
      const url = `/api/customers/realms/${realm.uid}/integrations/${operation}`;
      const res = await h.request({ method: 'GET', url, token: null, headers: { cookie } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['This realm has no Zendesk integration: an administrator sets it up first'] });
      const anonymous = await h.request({ method: 'GET', url, token: null });
      expect(anonymous.statusCode).toBe(401);
    }
    expect((await h.request({ method: 'GET', url: settingsPath(realm.uid) })).statusCode).toBe(404);
    expect((await h.request({ method: 'DELETE', url: settingsPath(realm.uid) })).statusCode).toBe(404);
  });

  it('never answers the secret, stores it encrypted, and keeps it on a partial PUT', async () => {
    const realm = await makeRealm(h);
    const answers = [await put(realm.uid, { subdomain: 'acme', key_id: 'one', shared_secret: SECRET })];
    answers.push(await put(realm.uid, { key_id: 'two' }));
    answers.push(await h.request({ method: 'GET', url: settingsPath(realm.uid) }));
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.body).not.toContain(SECRET);
      expect(answer.json()).not.toHaveProperty('shared_secret');
    }
    expect(answers[2].json()).toMatchObject({ subdomain: 'acme', key_id: 'two', configured: true });
    const document = await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null });
    expect(document.body).not.toContain(SECRET);

    // At rest: not in clear in the database.
    const stored = (await h.ctx.db.select().from(zendeskIntegrations)).map((row) => row.sealedSecret);
    expect(stored.length).toBeGreaterThan(0);
    for (const value of stored) expect(value).not.toContain(SECRET);

    // The secret kept by the partial PUT still signs; the new key id is the header's kid.
    const { cookie } = await signedIn(realm.uid);
    const res = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/integrations/zendesk_token`, token: null, headers: { cookie } });
    const verified = await jwtVerify(res.json().token, new TextEncoder().encode(SECRET), { currentDate: h.clock.now() });
    expect(verified.protectedHeader.kid).toBe('two');

    // A new secret replaces the old one.
    await put(realm.uid, { shared_secret: 'a brand new secret' });
    const renewed = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/integrations/zendesk_token`, token: null, headers: { cookie } });
    await jwtVerify(renewed.json().token, new TextEncoder().encode('a brand new secret'), { currentDate: h.clock.now() });
    await expect(jwtVerify(renewed.json().token, new TextEncoder().encode(SECRET), { currentDate: h.clock.now() })).rejects.toThrow();
  });

  it('checks the input: all three the first time, a valid subdomain label, nothing blank', async () => {
    const realm = await makeRealm(h);
    const first = await put(realm.uid, { subdomain: 'acme' });
    expect(first.statusCode).toBe(422);
    expect(first.json().details).toEqual([
      { field: 'key_id', messages: ["can't be blank"] }, { field: 'shared_secret', messages: ["can't be blank"] },
    ]);
    for (const subdomain of ['acme.zendesk.com', '-acme', 'acme-', 'ac me', 'a'.repeat(64), '', 'ac_me']) {
      const res = await put(realm.uid, { subdomain, key_id: 'k', shared_secret: SECRET });
      expect(res.statusCode, subdomain).toBe(422);
      expect(res.json().details[0].field).toBe('subdomain');
    }
    expect((await put(realm.uid, { subdomain: 'acme', key_id: 'k', shared_secret: '   ' })).statusCode).toBe(422);
    expect((await put(realm.uid, { subdomain: 'acme', key_id: 'k', shared_secret: SECRET, extra: 1 })).statusCode).toBe(422);
    const upper = await put(realm.uid, { subdomain: 'ACME-2', key_id: ' k ', shared_secret: SECRET });
    expect(upper.json()).toMatchObject({ subdomain: 'acme-2', key_id: 'k' });
    expect((await put(realm.uid, { key_id: '' })).statusCode).toBe(422);
    expect((await put('no-such-realm', { subdomain: 'acme', key_id: 'k', shared_secret: SECRET })).statusCode).toBe(404);
  });

  it('DELETE removes the integration (204): the customers operations answer 404 again', async () => {
    const realm = await makeRealm(h);
    await put(realm.uid, { subdomain: 'acme', key_id: 'k', shared_secret: SECRET });
    const { cookie } = await signedIn(realm.uid);
    const removed = await h.request({ method: 'DELETE', url: settingsPath(realm.uid) });
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await h.request({ method: 'GET', url: settingsPath(realm.uid) })).statusCode).toBe(404);
    const res = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/integrations/zendesk_token`, token: null, headers: { cookie } });
    expect(res.statusCode).toBe(404);
    // Set up again from scratch: all three are required once more.
    expect((await put(realm.uid, { key_id: 'k' })).statusCode).toBe(422);
  });

  it('needs realms.manage on the realm', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const otherAdmin = await memberToken(h, [{ key: 'realm_admin', target: other.uid }]);
    const admin = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    const body = { subdomain: 'acme', key_id: 'k', shared_secret: SECRET };
    expect((await put(realm.uid, body, viewer)).statusCode).toBe(403);
    expect((await put(realm.uid, body, otherAdmin)).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: settingsPath(realm.uid), token: viewer })).statusCode).toBe(403);
    expect((await put(realm.uid, body, admin)).statusCode).toBe(200);
    expect((await h.request({ method: 'DELETE', url: settingsPath(realm.uid), token: otherAdmin })).statusCode).toBe(403);
    expect((await put(realm.uid, body, null)).statusCode).toBe(401);
  });

  it.skipIf(usingPostgres())('generates the embedded database\'s key file under DATA_DIR, readable by its owner only', () => {
    const file = path.join(h.config.dataDir, 'secrets.key');
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
  });
});
