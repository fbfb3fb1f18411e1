import Fastify, { type FastifyPluginAsync, type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireAccessRule } from '../../src/admin-auth/access-rules.js';
import { catalogs } from '../../src/catalogs.js';
import { DEFAULT_MODULES } from '../../src/modules.js';
import { catalogPlugin } from '../../src/http/catalog.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const answer = { schema: { response: { 200: { type: 'object' } } } };

describe('every admin and customers route declares who may call it, or the server does not start', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  /** A catalog (the admin one unless told) with one more route plugin, on an app of its own: resolves once it is ready, or rejects. */
  async function start(extra: FastifyPluginAsync, which: 'admin' | 'customers' = 'admin'): Promise<void> {
    const app = Fastify();
    const catalog = catalogs(h.ctx, DEFAULT_MODULES).find((c) => c.prefix === `/api/${which}`)!;
    await app.register(catalogPlugin({ ...catalog, routes: [...catalog.routes, extra] }), { prefix: catalog.prefix });
    try {
      await app.ready();
    } finally {
      await app.close();
    }
  }

  it('refuses a route without an access rule, hidden or not', async () => {
    await expect(start(async (scope) => { scope.get('/hello', answer, async () => ({})); }))
      .rejects.toThrow("GET /api/admin/hello declares no access rule (config.access: a permission, 'signed-in' or 'public')");
    await expect(start(async (scope) => { scope.get('/hidden', { schema: { hide: true } }, async () => ({})); }))
      .rejects.toThrow('GET /api/admin/hidden declares no access rule');
  });

  it('refuses a route naming a realm or space whose permission has no target', async () => {
    await expect(start(async (scope) => {
      scope.get('/realms/:realm_uid/hello', { ...answer, config: { access: 'realm.users.read' } }, async () => ({}));
    })).rejects.toThrow('GET /api/admin/realms/:realm_uid/hello names :realm_uid but declares no target for realm.users.read (config.target)');
  });

  it('refuses a customers route that names no realm and is not public', async () => {
    await expect(start(async (scope) => { scope.get('/whoami', answer, async () => ({})); }, 'customers'))
      .rejects.toThrow('GET /api/customers/whoami names no realm (/realms/:realm_uid/...) and is not public (config.access)');
  });

  it('takes a route that says so; the whole admin catalog does (this harness started), its reference pages public', async () => {
    const route = (url: string, config: Record<string, unknown>, hide = false) => ({ method: 'GET', url, config, schema: { hide } }) as unknown as RouteOptions;
    expect(() => requireAccessRule(route('/api/admin/realms/:realm_uid/hello', { access: 'realm.users.read', target: 'realm_uid' }))).not.toThrow();
    expect(() => requireAccessRule(route('/api/admin/hidden', { access: 'public' }, true))).not.toThrow();
    expect((await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/admin/docs', token: null })).statusCode).toBeLessThan(400);
  });
});
