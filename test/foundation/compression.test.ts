import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';

// Answers above 1 KB compressed for a client that accepts it; small ones, HTML pages and any answer that
// can carry a secret (BREACH) never.

let h: Harness;
let realm: string;
beforeAll(async () => {
  h = await startHarness();
  realm = (await makeRealm(h)).uid;
  for (let i = 0; i < 30; i++) await makeRealmUser(h, realm, { email: `user-${i}@example.com`, first_name: `User ${i}` });
});
afterAll(async () => { await h?.close(); });

describe('compressed answers', () => {
  it('sends a list of 30 users as brotli, or gzip, to a client that accepts it, and the same JSON once inflated', async () => {
    const url = `/api/admin/customers/${realm}/users?per_page=100`;
    const plain = await h.request({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await h.request({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gzip = await h.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves small answers alone', async () => {
    const small = await h.request({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses an answer that carries a secret, however large', async () => {
    const created = await h.request({
      method: 'POST', url: '/api/admin/api_access/applications', headers: { 'accept-encoding': 'br, gzip' },
      payload: { name: 'x'.repeat(200), description: 'y'.repeat(1500) },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.rawPayload.length).toBeGreaterThan(1024);
    expect(created.headers['content-encoding']).toBeUndefined();
    expect(created.json().secret).toEqual(expect.any(String));
    const session = await h.request({ method: 'GET', url: '/api/admin/session', headers: { 'accept-encoding': 'br' } });
    expect(session.headers['content-encoding']).toBeUndefined();
  });

  it('compresses the catalogs only: never a page outside them (their forms carry CSRF tokens)', async () => {
    const login = await h.request({ method: 'GET', url: `/realms/${realm}/login`, token: null, headers: { 'accept-encoding': 'br, gzip' } });
    expect(login.statusCode).toBe(200);
    expect(login.headers['content-type']).toMatch(/^text\/html/);
    expect(login.headers['content-encoding']).toBeUndefined();
    const document = await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null, headers: { 'accept-encoding': 'br' } });
    expect(document.headers['content-encoding']).toBe('br');
  });
});
