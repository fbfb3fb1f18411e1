import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, memberToken } from '../helpers/realms.js';
import { CLIENT_ID, CLIENT_SECRET, startProvider, type TestProvider } from './provider.js';

describe('a realm\'s identity provider (admin API)', () => {
  let h: Harness;
  let idp: TestProvider;
  let realm: { uid: string };
  const url = () => `/api/admin/customers/${realm.uid}/identity_provider`;
  const valid = () => ({ issuer: idp.issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, button_label: 'Example ID' });

  beforeAll(async () => {
    h = await startHarness({ OUTBOUND_ALLOW_PRIVATE: '1' });
    idp = await startProvider(['http://atrium.test/unused']);
    realm = await makeRealm(h);
  });
  afterAll(async () => {
    await idp?.close();
    await h?.close();
  });

  it('answers 404 while the realm has none, and for an unknown realm', async () => {
    expect((await h.request({ method: 'GET', url: url() })).statusCode).toBe(404);
    expect((await h.request({ method: 'DELETE', url: url() })).statusCode).toBe(404);
    expect((await h.request({ method: 'PUT', url: '/api/admin/customers/nowhere/identity_provider', payload: valid() })).statusCode).toBe(404);
  });

  it('refuses a first PUT without the required attributes, naming each, and writes nothing', async () => {
    const res = await h.request({ method: 'PUT', url: url(), payload: { issuer: idp.issuer } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['button_label', 'client_id', 'client_secret']);
    expect((await h.request({ method: 'GET', url: url() })).statusCode).toBe(404);
  });

  it('refuses an issuer whose discovery fails with one reason, whatever answered (http is refused without the setting: test/security/outbound.test.ts)', async () => {
    // A port where nothing answers: discovery fails at once.
    const closed = await h.request({ method: 'PUT', url: url(), payload: { ...valid(), issuer: 'http://127.0.0.1:9' } });
    expect(closed.statusCode).toBe(422);
    const reason = { field: 'issuer', messages: [expect.stringContaining('could not be discovered as an OpenID Connect provider')] };
    expect(closed.json().details).toEqual([reason]);
    // An issuer whose metadata names another issuer (a path under the real one) is refused by openid-client, in the same words.
    const other = await h.request({ method: 'PUT', url: url(), payload: { ...valid(), issuer: `${idp.issuer}/elsewhere` } });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual(closed.json());
    const query = await h.request({ method: 'PUT', url: url(), payload: { ...valid(), issuer: `${idp.issuer}?x=1` } });
    expect(query.json().details).toEqual([{ field: 'issuer', messages: ['must not carry credentials, a query or a fragment'] }]);
    expect((await h.request({ method: 'GET', url: url() })).statusCode).toBe(404);
  });

  it('refuses scopes without openid, a bad claim name and a claim mapping to an unknown custom field', async () => {
    const res = await h.request({
      method: 'PUT', url: url(),
      payload: { ...valid(), scopes: ['email'], claim_mapping: { first_name: 'given name', custom_fields: { nowhere: 'x' } } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field).sort())
      .toEqual(['claim_mapping.custom_fields.nowhere', 'claim_mapping.first_name', 'scopes']);
  });

  it('stores a valid provider, answers it without the secret, and keeps the secret sealed at rest', async () => {
    const field = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`, payload: { key: 'employee', name: 'Employee', type: 'text' } });
    expect(field.statusCode).toBe(201);
    const res = await h.request({
      method: 'PUT', url: url(),
      payload: { ...valid(), claim_mapping: { username: 'preferred_username', custom_fields: { employee: 'employee_number' } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      issuer: idp.issuer, client_id: CLIENT_ID, client_secret_set: true, scopes: ['openid', 'email', 'profile'], button_label: 'Example ID',
      show_delegation_information: false,
      claim_mapping: { username: 'preferred_username', custom_fields: { employee: 'employee_number' } },
      redirect_uri: `http://atrium.test/realms/${realm.uid}/delegated_login/callback`,
      created_at: expect.any(String), updated_at: expect.any(String),
    });
    expect(res.body).not.toContain(CLIENT_SECRET);
    expect((await h.request({ method: 'GET', url: url() })).json()).toEqual(body);
    const [{ sealed_client_secret: sealedSecret }] = rowsOf<{ sealed_client_secret: string }>(
      await h.ctx.db.execute(sql`select sealed_client_secret from identity_providers`),
    );
    expect(sealedSecret).toMatch(/^v1\./);
    expect(sealedSecret).not.toContain(CLIENT_SECRET);
  });

  it('changes partially: the secret left out is kept, the label changes', async () => {
    const res = await h.request({ method: 'PUT', url: url(), payload: { button_label: 'Corporate login' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().button_label).toBe('Corporate login');
    expect(res.json().client_secret_set).toBe(true);
    const blank = await h.request({ method: 'PUT', url: url(), payload: { client_secret: '  ' } });
    expect(blank.statusCode).toBe(422);
  });

  it('keeps show_delegation_information in one place: the realm\'s setting', async () => {
    const on = await h.request({ method: 'PUT', url: url(), payload: { show_delegation_information: true } });
    expect(on.json().show_delegation_information).toBe(true);
    expect((await h.request({ method: 'GET', url: `/api/admin/realms/${realm.uid}` })).json().settings.show_delegation_information).toBe(true);
    await h.request({ method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { settings: { show_delegation_information: false } } });
    expect((await h.request({ method: 'GET', url: url() })).json().show_delegation_information).toBe(false);
  });

  it('lets realm roles read it and only realms.manage of that realm change it', async () => {
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const otherAdmin = await memberToken(h, [{ key: 'realm_admin', target: (await makeRealm(h)).uid }]);
    const admin = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    expect((await h.request({ method: 'GET', url: url(), token: viewer })).statusCode).toBe(200);
    expect((await h.request({ method: 'PUT', url: url(), token: viewer, payload: { button_label: 'X' } })).statusCode).toBe(403);
    expect((await h.request({ method: 'DELETE', url: url(), token: viewer })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: url(), token: otherAdmin })).statusCode).toBe(403);
    expect((await h.request({ method: 'PUT', url: url(), token: otherAdmin, payload: { button_label: 'X' } })).statusCode).toBe(403);
    expect((await h.request({ method: 'PUT', url: url(), token: admin, payload: { button_label: 'Example ID' } })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: url(), token: null })).statusCode).toBe(401);
  });

  it('deletes it (204), after which it is gone', async () => {
    expect((await h.request({ method: 'DELETE', url: url() })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: url() })).statusCode).toBe(404);
    expect((await h.request({ method: 'DELETE', url: url() })).statusCode).toBe(404);
    expect(rowsOf(await h.ctx.db.execute(sql`select count(*)::int as n from identity_providers`))).toEqual([{ n: 0 }]);
  });
});
