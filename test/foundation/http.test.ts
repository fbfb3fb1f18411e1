import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startHarness, type Harness } from '../helpers/harness.js';

const CATALOGS = ['/api/admin', '/api/content', '/api/profile', '/api/customers'];

describe('shared HTTP behaviour', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ BODY_LIMIT: '2048' }); });
  afterAll(async () => { await h?.close(); });

  it('GET /healthz answers 200 while the database answers', async () => {
    const res = await h.request({ method: 'GET', url: '/healthz', token: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown routes with 404 in each catalog\'s error shape', async () => {
    expect((await h.request({ method: 'GET', url: '/api/admin/no_such_thing' })).json()).toEqual({ errors: ['Not found'], code: 'ATR_ROUTE_NOT_FOUND' });
    const customers = await h.request({ method: 'GET', url: '/api/customers/realms/x/nothing', token: null });
    expect(customers.statusCode).toBe(404);
    expect(customers.json()).toEqual({});
    const outside = await h.request({ method: 'GET', url: '/nowhere', token: null });
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).toEqual({ errors: ['Not found'] });
  });

  it('takes a body-less DELETE or POST sent with a JSON content type as having no body', async () => {
    const json = { 'content-type': 'application/json' };
    const space = await h.request({ method: 'POST', url: '/api/admin/content/spaces', payload: { uid: 'empty-body', name: 'Empty', default_locale: 'en', locales: ['en'] } });
    expect(space.statusCode, space.body).toBe(201);
    const removed = await h.request({ method: 'DELETE', url: '/api/admin/content/spaces/empty-body', headers: json, payload: '' });
    expect(removed.statusCode, removed.body).toBe(204);
    const needsBody = await h.request({ method: 'POST', url: '/api/admin/content/spaces', headers: json, payload: ' ' });
    expect(needsBody.statusCode).toBe(422);
    expect(needsBody.json().code).toBe('ATR_INVALID');
  });

  it('refuses malformed JSON with 400 and a clear message', async () => {
    const res = await h.request({
      method: 'POST', url: '/api/admin/team_members', headers: { 'content-type': 'application/json' }, payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatch(/not valid JSON/);
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await h.request({
      method: 'POST', url: '/api/admin/team_members', headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(4096) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().errors[0]).toMatch(/too large/i);
  });

  it('reports schema failures as 422 naming the attribute', async () => {
    const res = await h.request({ method: 'POST', url: '/api/admin/team_members/1/access_tokens', payload: { application_id: 'abc' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'application_id', messages: [expect.stringMatching(/integer/)] }]);
  });

  it('paginates with defaults, cuts per_page to 100 and ignores garbage', async () => {
    const meta = async (query: string) => (await h.request({ method: 'GET', url: `/api/admin/roles${query}` })).json().meta;
    expect(await meta('')).toEqual({ total_entries: 15, per_page: 10, current_page: 1, total_pages: 2 });
    expect(await meta('?page=2&per_page=4')).toEqual({ total_entries: 15, per_page: 4, current_page: 2, total_pages: 4 });
    expect(await meta('?per_page=1000')).toMatchObject({ per_page: 100, total_pages: 1 });
    expect(await meta('?per_page=0&page=-3')).toMatchObject({ per_page: 10, current_page: 1 });
    expect(await meta('?per_page=abc&page=x')).toMatchObject({ per_page: 10, current_page: 1 });
    const page2 = (await h.request({ method: 'GET', url: '/api/admin/roles?page=2' })).json();
    expect(page2.roles).toHaveLength(5);
  });

  for (const prefix of CATALOGS) {
    it(`serves the ${prefix} reference page and a valid OpenAPI 3.1 document`, async () => {
      const page = await h.request({ method: 'GET', url: `${prefix}/docs`, token: null });
      const html = page.statusCode === 302
        ? await h.request({ method: 'GET', url: page.headers.location as string, token: null })
        : page;
      expect(html.statusCode).toBe(200);
      expect(html.headers['content-type']).toMatch(/text\/html/);
      expect(html.body).toContain('swagger-ui');
      const doc = await h.request({ method: 'GET', url: `${prefix}/docs/openapi.json`, token: null });
      expect(doc.statusCode).toBe(200);
      const document = doc.json();
      expect(document.openapi).toBe('3.1.0');
      const validator = new Validator();
      const result = await validator.validate(document);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
    });
  }

  it('documents every admin operation with its failures, and each route in one catalog only', async () => {
    const documents = await Promise.all(CATALOGS.map(async (prefix) =>
      (await h.request({ method: 'GET', url: `${prefix}/docs/openapi.json`, token: null })).json()));
    const admin = documents[0];
    expect(Object.keys(admin.components.schemas)).toEqual(expect.arrayContaining(['Error', 'Meta', 'Role', 'TeamMember']));
    const operations = Object.entries(admin.paths as Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>>)
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThan(15);
    for (const { path, method, op } of operations) {
      const secured = !(Array.isArray(op.security) && op.security.length === 0);
      if (secured) expect(Object.keys(op.responses), `${method} ${path}`).toContain('401');
    }
    const seen = new Map<string, string>();
    documents.forEach((doc, i) => {
      for (const path of Object.keys(doc.paths)) {
        const full = `${CATALOGS[i]}${path}`;
        expect(seen.has(full), full).toBe(false);
        seen.set(full, CATALOGS[i]);
      }
    });
  });
});

describe('health check without a database', () => {
  it('answers 503 once the database stops answering', async () => {
    const h = await startHarness();
    const { database } = h.ctx;
    const close = database.close.bind(database);
    await close();
    database.close = async () => {};
    const res = await h.request({ method: 'GET', url: '/healthz', token: null });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
    await h.close().catch(() => {});
  });
});

