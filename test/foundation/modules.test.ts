import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failures } from '../../src/http/responses.js';
import { runDueJobs } from '../../src/jobs/runner.js';
import { DEFAULT_MODULES } from '../../src/modules.js';
import { jobsOf } from '../../src/server.js';
import type { AtriumModule } from '../../src/shared/atrium-module.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const greetings: string[] = [];

/** A feature the app does not have: one admin route, one job, one webhook event type. */
const hello: AtriumModule = {
  name: 'hello',
  catalogs: () => ({
    admin: [async (scope) => {
      scope.get('/hello', {
        config: { access: 'account.read' },
        schema: {
          tags: ['Account'], summary: 'Say hello',
          response: { 200: Type.Object({ hello: Type.String() }), ...failures(401, 403) },
        },
      }, async () => ({ hello: 'world' }));
    }],
  }),
  jobs: [{ name: 'hello_greeting', everyMs: 60_000, leaseMs: 60_000, run: async () => { greetings.push('hello'); } }],
  webhookEvents: { 'hello.said': 'Someone said hello; data: nothing' },
};

describe('a module added to the defaults', () => {
  let h: Harness;
  const modules = [...DEFAULT_MODULES, hello];

  beforeAll(async () => { h = await startHarness({}, modules); });
  afterAll(async () => { await h?.close(); });

  it('serves its route in the admin catalog, behind the admin guard', async () => {
    const res = await h.request({ method: 'GET', url: '/api/admin/hello' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ hello: 'world' });
    expect((await h.request({ method: 'GET', url: '/api/admin/hello', token: null })).statusCode).toBe(401);
  });

  it('documents its route in the admin OpenAPI document', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null })).json();
    expect(doc.paths['/hello'].get.summary).toBe('Say hello');
  });

  it('runs its job with the others', async () => {
    expect(await runDueJobs(h.ctx, jobsOf(modules))).toContain('hello_greeting');
    expect(greetings).toEqual(['hello']);
  });

  it('lists its event type among those webhooks can receive, and takes it for an endpoint', async () => {
    const res = await h.request({ method: 'GET', url: '/api/admin/webhooks/event_types' });
    const types = res.json().event_types as { type: string; kind: string; description: string }[];
    expect(types).toContainEqual({ type: 'hello.said', kind: 'admin', description: 'Someone said hello; data: nothing', realm_uids: null });
    const created = await h.request({ method: 'POST', url: '/api/admin/webhooks', payload: { url: 'https://hooks.example.com/hello', event_types: ['hello.said'] } });
    expect(created.statusCode).toBe(201);
  });

  it('leaves the default app without them', async () => {
    const plain = await startHarness();
    try {
      expect((await plain.request({ method: 'GET', url: '/api/admin/hello' })).statusCode).toBe(404);
      const types = (await plain.request({ method: 'GET', url: '/api/admin/webhooks/event_types' })).json().event_types as { type: string }[];
      expect(types.map((t) => t.type)).not.toContain('hello.said');
    } finally {
      await plain.close();
    }
  });
});
