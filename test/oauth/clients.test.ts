import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from '../helpers/harness.js';
import { oauthClients } from '../../src/tables/oauth.js';
import { hashSecret } from '../../src/security/secrets.js';
import { memberToken } from '../helpers/realms.js';
import { createRealm, postForm } from './fixtures.js';

describe('OAuth clients admin API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await createRealm(h, 'bank');
    await createRealm(h, 'shop');
  });
  afterAll(async () => { await h?.close(); });

  const base = '/api/admin/customers/bank/oauth_clients';

  it('creates a client, shows the secret once and keeps only its hash', async () => {
    const res = await h.request({
      method: 'POST', url: base,
      payload: { name: 'Mobile', redirect_uris: ['https://app.example/cb', 'http://127.0.0.1:8080/cb'], scopes: ['public'], confidential: false },
    });
    expect(res.statusCode).toBe(201);
    const client = res.json();
    expect(client).toMatchObject({ name: 'Mobile', redirect_uris: ['https://app.example/cb', 'http://127.0.0.1:8080/cb'], scopes: ['public'], confidential: false });
    expect(client.uid).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(client.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await h.ctx.db.select().from(oauthClients).where(eq(oauthClients.id, client.id));
    expect(row.secretHash).toBe(hashSecret(client.secret));
    expect(JSON.stringify(row)).not.toContain(client.secret);

    const shown = await h.request({ method: 'GET', url: `${base}/${client.id}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().secret).toBeUndefined();
    const list = await h.request({ method: 'GET', url: base });
    expect(list.json().oauth_clients.map((c: { id: number }) => c.id)).toContain(client.id);
    expect(list.json().oauth_clients[0].secret).toBeUndefined();
    expect(list.json().meta).toMatchObject({ total_entries: 1, current_page: 1 });
  });

  it('defaults to a confidential client with no scope restriction', async () => {
    const res = await h.request({ method: 'POST', url: base, payload: { name: 'Web', redirect_uris: ['https://web.example/cb'] } });
    expect(res.json()).toMatchObject({ confidential: true, scopes: [] });
  });

  it('refuses bad redirect URIs and unknown scopes with 422', async () => {
    const res = await h.request({
      method: 'POST', url: base,
      payload: { name: '', redirect_uris: ['/relative', 'http://evil.example/cb', 'https://app.example/cb#frag', 'javascript:alert(1)'], scopes: ['write'] },
    });
    expect(res.statusCode).toBe(422);
    const fields = Object.fromEntries(res.json().details.map((d: { field: string; messages: string[] }) => [d.field, d.messages]));
    expect(fields.name).toEqual(["can't be blank"]);
    expect(fields.redirect_uris).toHaveLength(4);
    expect(fields.scopes[0]).toMatch(/write/);
    const empty = await h.request({ method: 'POST', url: base, payload: { name: 'X', redirect_uris: [] } });
    expect(empty.statusCode).toBe(422);
    const localhost = await h.request({ method: 'POST', url: base, payload: { name: 'Dev', redirect_uris: ['http://localhost:3000/cb', 'http://[::1]/cb'] } });
    expect(localhost.statusCode).toBe(201);
  });

  it('refuses, at registration and update, a redirect URI whose query carries code, state or iss', async () => {
    const reserved = ['https://app.example/cb?code=1', 'https://app.example/cb?x=1&state=abc', 'https://app.example/cb?iss=https%3A%2F%2Fx'];
    const res = await h.request({ method: 'POST', url: base, payload: { name: 'Twice', redirect_uris: reserved } });
    expect(res.statusCode).toBe(422);
    const messages = res.json().details.find((d: { field: string }) => d.field === 'redirect_uris').messages;
    expect(messages).toHaveLength(3);
    expect(messages[1]).toMatch(/must not carry state in its query/);
    const created = (await h.request({ method: 'POST', url: base, payload: { name: 'Fine', redirect_uris: ['https://app.example/cb?tenant=a'] } }));
    expect(created.statusCode).toBe(201);
    const update = await h.request({ method: 'PUT', url: `${base}/${created.json().id}`, payload: { redirect_uris: ['https://app.example/cb?tenant=a&code=x'] } });
    expect(update.statusCode).toBe(422);
    expect(update.json().errors[0]).toMatch(/must not carry code/);
  });

  it('changes a client partially and deletes it', async () => {
    const created = (await h.request({ method: 'POST', url: base, payload: { name: 'Old', redirect_uris: ['https://a.example/cb'] } })).json();
    const res = await h.request({ method: 'PUT', url: `${base}/${created.id}`, payload: { name: 'New', scopes: ['admin'] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'New', scopes: ['admin'], redirect_uris: ['https://a.example/cb'], uid: created.uid });
    expect(res.json().secret).toBeUndefined();
    const bad = await h.request({ method: 'PUT', url: `${base}/${created.id}`, payload: { redirect_uris: ['ftp://x'] } });
    expect(bad.statusCode).toBe(422);
    expect((await h.request({ method: 'DELETE', url: `${base}/${created.id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: `${base}/${created.id}` })).statusCode).toBe(404);
  });

  it('regenerates a secret: shown once, the previous one refused at once, the client otherwise unchanged', async () => {
    const created = (await h.request({ method: 'POST', url: base, payload: { name: 'Web', redirect_uris: ['https://a.example/cb'] } })).json();
    // The revocation endpoint authenticates the client (RFC 7009): 200 with its secret, 401 invalid_client without.
    const authenticates = async (secret: string) => (await postForm(h, '/realms/bank/oauth/revoke', { token: 'unknown', client_id: created.uid, client_secret: secret })).statusCode;
    expect(await authenticates(created.secret)).toBe(200);
    const res = await h.request({ method: 'POST', url: `${base}/${created.id}/regenerate_secret` });
    expect(res.statusCode).toBe(200);
    const regenerated = res.json();
    expect(regenerated).toMatchObject({ id: created.id, uid: created.uid, name: 'Web', redirect_uris: ['https://a.example/cb'] });
    expect(regenerated.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(regenerated.secret).not.toBe(created.secret);
    expect(await authenticates(created.secret)).toBe(401);
    expect(await authenticates(regenerated.secret)).toBe(200);
    const [row] = await h.ctx.db.select().from(oauthClients).where(eq(oauthClients.id, created.id));
    expect(row.secretHash).toBe(hashSecret(regenerated.secret));
    expect((await h.request({ method: 'GET', url: `${base}/${created.id}` })).json().secret).toBeUndefined();
    expect((await h.request({ method: 'POST', url: `/api/admin/customers/shop/oauth_clients/${created.id}/regenerate_secret` })).statusCode).toBe(404);
    expect((await h.request({ method: 'POST', url: `${base}/${created.id}/regenerate_secret`, token: null })).statusCode).toBe(401);
    // A member who reads realms but may not manage them gets nothing; the secret in force is unchanged.
    const reader = await memberToken(h, [{ key: 'account_user' }]);
    expect((await h.request({ method: 'POST', url: `${base}/${created.id}/regenerate_secret`, token: reader })).statusCode).toBe(403);
    expect(await authenticates(regenerated.secret)).toBe(200);
  });

  it('keeps realms apart and answers 404 for an unknown realm, 401 without a credential', async () => {
    const created = (await h.request({ method: 'POST', url: base, payload: { name: 'Bank app', redirect_uris: ['https://a.example/cb'] } })).json();
    expect((await h.request({ method: 'GET', url: `/api/admin/customers/shop/oauth_clients/${created.id}` })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: '/api/admin/customers/nope/oauth_clients' })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: base, token: null })).statusCode).toBe(401);
  });

  it('allows a realm-scoped role only on its own realm', async () => {
    const member = await h.request({
      method: 'POST', url: '/api/admin/team_members',
      payload: { email: 'realmadmin@atrium.test', password: 'a good long password', roles: [{ key: 'realm_admin', target: 'bank' }] },
    });
    expect(member.statusCode).toBe(201);
    const app = (await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'cli', redirect_uri: 'https://x.example/cb' } })).json();
    const token = (await h.request({ method: 'POST', url: `/api/admin/team_members/${member.json().id}/access_tokens`, payload: { application_id: app.id } })).json().token;
    expect((await h.request({ method: 'GET', url: base, token })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/admin/customers/shop/oauth_clients', token })).statusCode).toBe(403);
  });
});
