import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { ConfigError, loadConfig, type Config } from '../../src/config.js';
import type { Context } from '../../src/context.js';
import { drainSending } from '../../src/messaging/worker.js';
import { emitWebhookEvent } from '../../src/webhooks/outbox.js';
import { webhookEndpoints } from '../../src/tables/webhooks.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { usingPostgres } from '../helpers/database.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { deliver, makeCampaign, showDelivery } from '../messaging/fixtures.js';
import { parsePrometheus, sampleValue } from '../helpers/prometheus.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const DURATIONS = 'atrium_http_request_duration_seconds';

describe('GET /metrics', () => {
  let h: Harness;
  const extraApps: FastifyInstance[] = [];

  /** Another app on the same database with other metrics settings. */
  async function appWith(metrics: Config['metrics']): Promise<FastifyInstance> {
    const ctx: Context = Object.create(h.ctx, { config: { value: { ...h.ctx.config, metrics } } });
    const app = await buildApp(ctx);
    await app.ready();
    extraApps.push(app);
    return app;
  }

  const scrape = async (app?: FastifyInstance) => {
    const res = await (app ?? h.app).inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, res.body).toBe(200);
    return parsePrometheus(res.body);
  };
  const requests = (families: ReturnType<typeof parsePrometheus>, route: string, method: string, statusClass: string) =>
    sampleValue(families, `${DURATIONS}_count`, { route, method, status_class: statusClass }) ?? 0;

  beforeAll(async () => {
    h = await startHarness({ METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    for (const app of extraApps) await app.close();
    await h?.close();
  });

  it('is absent when neither METRICS_TOKEN nor METRICS_PUBLIC is set: 404 like any unknown address', async () => {
    const off = await appWith({ enabled: false });
    const metrics = await off.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    const unknown = await off.inject({ method: 'GET', url: '/no-such-address' });
    expect(metrics.statusCode).toBe(404);
    expect(metrics.body).toBe(unknown.body);
    expect(metrics.headers['content-type']).toBe(unknown.headers['content-type']);
  });

  it('asks for the token: none, a wrong one, one of another length, or another scheme is 401 with a Bearer challenge', async () => {
    const attempts = [
      {}, { authorization: 'Bearer wrong-token-0123456789abcdef' }, { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` }, { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN }, { authorization: 'Bearer ' }, { authorization: `Bearer ${'a'.repeat(100_000)}` },
    ];
    for (const headers of attempts) {
      const res = await h.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode, JSON.stringify(headers).slice(0, 80)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json()).toEqual({ errors: ['A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)'] });
    }
    const parallel = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer guess-${i}-0123456789abcdef` } })));
    expect(parallel.map((r) => r.statusCode)).toEqual(Array(50).fill(401));
    const res = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is open to anyone with METRICS_PUBLIC=1', async () => {
    const open = await appWith({ enabled: true, token: null });
    const res = await open.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(sampleValue(parsePrometheus(res.body), 'atrium_db_pool_connections', { state: 'max' })).toBeGreaterThan(0);
  });

  it('counts the requests made, by route pattern (never the raw address), method and status class', async () => {
    const before = await scrape();
    const realm = await makeRealm(h);
    for (let i = 0; i < 3; i++) expect((await h.request({ method: 'GET', url: '/api/admin/roles' })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: null })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: `/api/admin/realms/${realm.uid}` })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/admin/realms/secret-realm-name' })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: '/private/path/of/someone?token=abc' })).statusCode).toBe(404);
    expect((await h.request({ method: 'DELETE', url: '/another/secret/path' })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const after = await scrape();

    const made = (route: string, method: string, statusClass: string) =>
      requests(after, route, method, statusClass) - requests(before, route, method, statusClass);
    expect(made('/api/admin/roles', 'GET', '2xx')).toBe(3);
    expect(made('/api/admin/roles', 'GET', '4xx')).toBe(1);
    expect(made('/api/admin/realms', 'POST', '2xx')).toBe(1);
    expect(made('/api/admin/realms/:realm_uid', 'GET', '2xx')).toBe(1);
    expect(made('/api/admin/realms/:realm_uid', 'GET', '4xx')).toBe(1);
    expect(made('unmatched', 'GET', '4xx')).toBe(1);
    expect(made('unmatched', 'DELETE', '4xx')).toBe(1);
    expect(made('/healthz', 'GET', '2xx')).toBe(1);
    // The first scrape is counted by the second one.
    expect(made('/metrics', 'GET', '2xx')).toBe(1);

    const family = after.get(DURATIONS)!;
    expect(family.type).toBe('histogram');
    const routes = new Set(family.samples.map((s) => s.labels.route));
    for (const route of routes) expect(route === 'unmatched' || route.startsWith('/')).toBe(true);
    expect([...routes].join(' ')).not.toMatch(/secret|private|token=|realm-/);
    expect(new Set(family.samples.map((s) => s.labels.status_class))).toEqual(new Set(['2xx', '4xx']));
    const roles = { route: '/api/admin/roles', method: 'GET', status_class: '2xx' };
    expect(sampleValue(after, `${DURATIONS}_bucket`, { ...roles, le: '+Inf' })).toBe(sampleValue(after, `${DURATIONS}_count`, roles));
    expect(sampleValue(after, `${DURATIONS}_sum`, roles)).toBeGreaterThan(0);
    // The bounds, in order (parsePrometheus checks that the counts are cumulative and end at _count).
    const buckets = family.samples.filter((s) => s.name === `${DURATIONS}_bucket` && s.labels.route === roles.route && s.labels.status_class === '2xx');
    expect(buckets.map((s) => s.labels.le)).toEqual(['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
  });

  it('shows the database pool, the event loop, the counters of the other features, and their help', async () => {
    const families = await scrape();
    expect(sampleValue(families, 'atrium_db_pool_connections', { state: 'max' })).toBe(usingPostgres() ? 5 : 1);
    expect(sampleValue(families, 'atrium_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    if (usingPostgres()) {
      expect(sampleValue(families, 'atrium_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(sampleValue(families, 'atrium_db_pool_waiting_queries')).toBe(0);
    } else {
      // The embedded database is one connection whose queue is not observed: no made-up figure.
      expect(sampleValue(families, 'atrium_db_pool_connections', { state: 'idle' })).toBeUndefined();
      expect(families.has('atrium_db_pool_waiting_queries')).toBe(false);
    }
    expect(families.get('nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
    expect(sampleValue(families, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(families.get('nodejs_eventloop_lag_p99_seconds')?.type).toBe('gauge');
    for (const name of ['atrium_webhook_attempts_total', 'atrium_campaign_messages_total', 'atrium_lockouts_total']) {
      expect(families.get(name)?.type, name).toBe('counter');
      expect(families.get(name)?.help, name).not.toBe('');
    }
  });

  it('reads the outbox and sending queue depths when scraped, and counts campaign messages sent and failed', async () => {
    const realm = await makeRealm(h);
    const [endpoint] = await h.ctx.db.insert(webhookEndpoints).values({
      url: 'https://hooks.example.com/in', eventTypes: ['realm_user.created'], secretSealed: 'unused here',
    }).returning();
    for (let i = 0; i < 2; i++) await emitWebhookEvent({ clock: h.clock, database: h.ctx.database }, h.ctx.db, { type: 'realm_user.created', realmUid: realm.uid, data: { i } });
    await emitWebhookEvent({ clock: h.clock, database: h.ctx.database }, h.ctx.db, { type: 'realm_user.deleted', realmUid: realm.uid, data: {} });
    expect(sampleValue(await scrape(), 'atrium_webhook_outbox_depth')).toBe(2);
    await h.ctx.db.delete(webhookEndpoints);
    expect(sampleValue(await scrape(), 'atrium_webhook_outbox_depth')).toBe(0);
    expect(endpoint.id).toBeGreaterThan(0);

    const sentBefore = sampleValue(await scrape(), 'atrium_campaign_messages_total', { result: 'sent' }) ?? 0;
    for (let i = 0; i < 5; i++) await makeRealmUser(h, realm.uid);
    const campaign = await makeCampaign(h, realm.uid);
    const delivery = await deliver(h, campaign.id, { rate_per_second: 2 });
    await drainSending(h.ctx);
    let families = await scrape();
    expect(sampleValue(families, 'atrium_sending_queue_depth')).toBe(3);
    expect(sampleValue(families, 'atrium_campaign_messages_total', { result: 'sent' })).toBe(sentBefore + 2);
    h.clock.advance(1_000);
    await drainSending(h.ctx);
    h.clock.advance(1_000);
    await drainSending(h.ctx);
    expect(await showDelivery(h, campaign.id, delivery.id)).toMatchObject({ status: 'completed', sent_count: 5 });
    families = await scrape();
    expect(sampleValue(families, 'atrium_sending_queue_depth')).toBe(0);
    expect(sampleValue(families, 'atrium_campaign_messages_total', { result: 'sent' })).toBe(sentBefore + 5);

    // A mail server refusing for good (5xx): the message is failed at once, and counted.
    const failedBefore = sampleValue(families, 'atrium_campaign_messages_total', { result: 'failed' }) ?? 0;
    const mail = h.ctx.mail;
    h.ctx.mail = { ...mail, send: async () => { throw Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550, response: '550 mailbox unavailable' }); } };
    try {
      const refused = await deliver(h, (await makeCampaign(h, realm.uid)).id);
      await drainSending(h.ctx);
      expect((await showDelivery(h, refused.campaign_id, refused.id)).failed_count).toBe(5);
    } finally {
      h.ctx.mail = mail;
    }
    expect(sampleValue(await scrape(), 'atrium_campaign_messages_total', { result: 'failed' })).toBe(failedBefore + 5);
  });
});

describe('metrics configuration', () => {
  it('is off by default; METRICS_TOKEN puts it behind a token; METRICS_PUBLIC=1 opens it', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: false });
    expect(loadConfig({ METRICS_PUBLIC: '0' }).metrics).toEqual({ enabled: false });
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metrics).toEqual({ enabled: true, token: TOKEN });
    expect(loadConfig({ METRICS_PUBLIC: '1' }).metrics).toEqual({ enabled: true, token: null });
  });

  it.each([
    [{ METRICS_PUBLIC: 'yes' }, /^METRICS_PUBLIC must be 1 or 0, got "yes"$/],
    [{ METRICS_PUBLIC: '1', METRICS_TOKEN: TOKEN }, /^set METRICS_TOKEN or METRICS_PUBLIC=1, not both$/],
    [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN must be at least 16 printable characters/],
    [{ METRICS_TOKEN: 'has a space in it, long enough' }, /^METRICS_TOKEN must be at least 16 printable characters/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
