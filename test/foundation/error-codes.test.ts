import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredCodes } from '../../src/errors/index.js';
import { makeSpace, makeType } from '../helpers/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { loggedApp } from '../helpers/logged-app.js';
import { makeRealm } from '../helpers/realms.js';

describe('errors with stable codes', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  it('puts the code in the body of the admin and profile catalogs, and in the header of every error', async () => {
    const missing = await h.request({ method: 'GET', url: '/api/admin/realms/no-such-realm' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ errors: ['Realm not found'], code: 'ATR_NOT_FOUND' });
    expect(missing.headers['atrium-error-code']).toBe('ATR_NOT_FOUND');

    const invalid = await h.request({ method: 'POST', url: '/api/admin/team_members/1/access_tokens', payload: { application_id: 'abc' } });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toMatchObject({ code: 'ATR_INVALID', details: [{ field: 'application_id' }] });

    const profile = await h.request({ method: 'GET', url: '/api/profile/nothing', token: null });
    expect(profile.json()).toEqual({ errors: ['Not found'], code: 'ATR_ROUTE_NOT_FOUND' });
  });

  it('keeps the customers API\'s fixed bodies byte for byte and sends the code in a header', async () => {
    const unknownRealm = await h.request({ method: 'GET', url: '/api/customers/realms/no-such-realm/me', token: null });
    expect(unknownRealm.statusCode).toBe(404);
    expect(unknownRealm.body).toBe('{}');
    expect(unknownRealm.headers['atrium-error-code']).toBe('ATR_REALM_NOT_FOUND');

    const realm = await makeRealm(h);
    const noCredential = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null });
    expect(noCredential.statusCode).toBe(401);
    expect(noCredential.body).toBe('{"error":{"user_session":"user not found"}}');
    expect(noCredential.headers['atrium-error-code']).toBe('ATR_USER_SESSION');
  });

  it('keeps OAuth\'s RFC 6749 body and sends the code in a header', async () => {
    const res = await h.request({ method: 'POST', url: '/realms/bank/oauth/token', token: null, payload: { grant_type: 'authorization_code' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid_request', error_description: 'the request body must be application/x-www-form-urlencoded' });
    expect(res.headers['atrium-error-code']).toBe('ATR_OAUTH_INVALID_REQUEST');
  });

  it('keeps the content delivery API\'s query error and sends the code in a header', async () => {
    const space = await makeSpace(h);
    const type = await makeType(h, space.uid);
    const res = await h.request({ method: 'GET', url: `/api/content/spaces/${space.uid}/types/${type.uid}/entries?colour=red`, token: null });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('{"error":{"query":{"colour":["Unknown parameter"]}}}');
    expect(res.headers['atrium-error-code']).toBe('ATR_CONTENT_QUERY');
  });

  it('lists in each operation\'s OpenAPI document the codes its failures may carry', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null })).json();
    const show = doc.paths['/realms/{realm_uid}'].get.responses;
    const codesOf = (status: number) => show[status].headers['Atrium-Error-Code'].schema.enum;
    expect(codesOf(404)).toContain('ATR_NOT_FOUND');
    expect(codesOf(404)).not.toContain('ATR_REALM_NOT_FOUND');
    // The guard's own 403: a member who must enrol a second factor reaches nothing else.
    expect(codesOf(403)).toEqual(['ATR_FORBIDDEN', 'ATR_SECOND_FACTOR_ENROLMENT']);
    expect(doc.components.schemas.Error.required).toContain('code');
    const customers = (await h.request({ method: 'GET', url: '/api/customers/docs/openapi.json', token: null })).json();
    expect(customers.components.schemas.Error.properties).not.toHaveProperty('code');
    const me = customers.paths['/realms/{realm_uid}/me'].get.responses;
    expect(me[404].headers['Atrium-Error-Code'].schema.enum).toContain('ATR_REALM_NOT_FOUND');
    expect(me[401].headers['Atrium-Error-Code'].schema.enum).toEqual(['ATR_GRANT_EXPIRED', 'ATR_USER_SESSION']);
  });

  it('declares every code once, each with a kind and a description', () => {
    const codes = declaredCodes();
    expect(new Set(codes.map((d) => d.code)).size).toBe(codes.length);
    for (const d of codes) {
      expect(d.code).toMatch(/^ATR_[A-Z0-9_]+$/);
      expect(d.description).not.toBe('');
    }
  });
});

describe('the log of a failed request', () => {
  let h: Harness;
  let app: FastifyInstance;
  let lines: string[];
  beforeAll(async () => {
    h = await startHarness();
    ({ app, lines } = await loggedApp(h));
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('carries the code', async () => {
    await app.inject({ method: 'GET', url: '/api/admin/realms/no-such-realm', headers: { authorization: `Bearer ${h.ownerToken}` } });
    await app.inject({ method: 'GET', url: '/api/customers/realms/no-such-realm/me' });
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ url: '/api/admin/realms/no-such-realm', status: 404, code: 'ATR_NOT_FOUND' }),
      expect.objectContaining({ url: '/api/customers/realms/no-such-realm/me', status: 404, code: 'ATR_REALM_NOT_FOUND' }),
    ]);
  });
});
