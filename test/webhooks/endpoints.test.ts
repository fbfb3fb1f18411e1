import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';

let h: Harness;
let realm: { uid: string };

beforeAll(async () => {
  h = await startHarness();
  realm = await makeRealm(h);
});
afterAll(async () => { await h?.close(); });

const create = (payload: Record<string, unknown>, token?: string) => h.request({ method: 'POST', url: '/api/admin/webhooks', payload, token });
const valid = { url: 'https://hooks.example.com/atrium', event_types: ['realm_user.updated'] };

describe('webhook endpoints', () => {
  it('creates an endpoint, shows its secret once, and never again', async () => {
    const res = await create({ ...valid, description: 'CRM sync', realm_uids: [realm.uid] });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ url: valid.url, description: 'CRM sync', event_types: ['realm_user.updated'], realm_uids: [realm.uid], active: true, disabled_reason: null, failing_since: null });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);

    const shown = await h.request({ method: 'GET', url: `/api/admin/webhooks/${body.id}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain(body.secret.slice(6, 20));
    expect(shown.json()).not.toHaveProperty('secret');
    const list = await h.request({ method: 'GET', url: '/api/admin/webhooks' });
    expect(list.json().webhooks.map((w: { id: number }) => w.id)).toContain(body.id);
    expect(list.body).not.toContain('whsec_');
    expect(list.json().meta).toMatchObject({ current_page: 1 });
  });

  it('defaults realm_uids to "all", changes partially, deletes', async () => {
    const created = (await create(valid)).json();
    expect(created.realm_uids).toBe('all');
    const changed = await h.request({ method: 'PUT', url: `/api/admin/webhooks/${created.id}`, payload: { description: 'new', active: false } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ url: valid.url, description: 'new', active: false, realm_uids: 'all' });
    expect(changed.json()).not.toHaveProperty('secret');
    const back = await h.request({ method: 'PUT', url: `/api/admin/webhooks/${created.id}`, payload: { realm_uids: [realm.uid] } });
    expect(back.json().realm_uids).toEqual([realm.uid]);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/webhooks/${created.id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: `/api/admin/webhooks/${created.id}` })).statusCode).toBe(404);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/webhooks/${created.id}` })).statusCode).toBe(404);
  });

  it('rotates the secret: a new one, shown once, the previous one signing for 24 hours', async () => {
    const created = (await create(valid)).json();
    const rotated = await h.request({ method: 'POST', url: `/api/admin/webhooks/${created.id}/rotate_secret` });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(created.secret);
    expect(Date.parse(rotated.json().previous_secret_expires_at) - h.clock.now().getTime()).toBe(86_400_000);
    expect((await h.request({ method: 'POST', url: '/api/admin/webhooks/999999/rotate_secret' })).statusCode).toBe(404);
  });

  it('lists every event type: admin-side, built-in business types and custom types of each realm', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const recorded = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${user.id}/events`, payload: { type: 'points_earned' } });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const res = await h.request({ method: 'GET', url: '/api/admin/webhooks/event_types' });
    expect(res.statusCode).toBe(200);
    const types = res.json().event_types as { type: string; kind: string; realm_uids: string[] | null }[];
    const kinds = Object.fromEntries(types.map((t) => [t.type, t.kind]));
    for (const type of ['realm_user.created', 'realm_user.updated', 'realm_user.deleted', 'submission.status_changed', 'delivery.completed', 'entry.published', 'entry.unpublished']) {
      expect(kinds[type]).toBe('admin');
    }
    expect(kinds.user_login_log).toBe('business');
    expect(types.find((t) => t.type === 'points_earned')).toMatchObject({ kind: 'custom', realm_uids: [realm.uid] });
    // A custom type recorded somewhere can be subscribed to; an unknown one is named in the 422.
    expect((await create({ ...valid, event_types: ['points_earned', 'user_login_log'] })).statusCode).toBe(201);
    expect((await create({ ...valid, event_types: ['points_earned', 'points_spent', 'user_login_log'] })).json().errors[0]).toContain('points_spent');
    const bad = await create({ ...valid, event_types: ['realm_user.updated', 'realm_user.updtaed'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toContain('realm_user.updtaed');
    expect(bad.json().details[0].field).toBe('event_types');
  });

  it('refuses bad input with 422 naming the attribute', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ event_types: ['realm_user.updated'] }, 'url'],
      [{ url: valid.url }, 'event_types'],
      [{ ...valid, event_types: [] }, 'event_types'],
      [{ ...valid, url: 'ftp://example.com/x' }, 'url'],
      [{ ...valid, url: 'not a url' }, 'url'],
      [{ ...valid, url: 'https://user:pass@example.com/x' }, 'url'],
      [{ ...valid, url: `https://example.com/${'a'.repeat(3000)}` }, 'url'],
      [{ ...valid, realm_uids: ['nope'] }, 'realm_uids'],
      [{ ...valid, realm_uids: [] }, 'realm_uids'],
      [{ ...valid, realm_uids: 'some' }, 'realm_uids'],
      [{ ...valid, description: 'x'.repeat(1001) }, 'description'],
      [{ ...valid, secret: 'whsec_mine' }, 'secret'],
      [{ ...valid, event_types: Array.from({ length: 201 }, () => 'user_login_log') }, 'event_types'],
    ];
    for (const [payload, field] of cases) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field), res.body).toContain(field);
    }
    const nul = await create({ ...valid, description: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    for (const id of ['0', '-1', '99999999999999999999', 'abc', '1e400']) {
      expect((await h.request({ method: 'GET', url: `/api/admin/webhooks/${id}` })).statusCode, id).toBe(422);
    }
    expect((await h.request({ method: 'POST', url: '/api/admin/webhooks/deliveries/99999999999999999999/retry' })).statusCode).toBe(422);
    expect((await h.request({ method: 'POST', url: '/api/admin/webhooks/deliveries/123456/retry' })).statusCode).toBe(404);
  });

  it('refuses IP literals in private, loopback and link-local ranges (WEBHOOKS_ALLOW_PRIVATE off)', async () => {
    const refused = [
      'http://127.0.0.1:8080/x', 'http://10.1.2.3/', 'http://172.20.0.1/', 'http://192.168.1.1/', 'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/', 'http://0.0.0.0/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[fc00::1]/', 'http://[fd12::1]/',
      'http://[fe80::1]/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::]/', 'http://[::127.0.0.1]/', 'https://224.0.0.1/',
    ];
    for (const url of refused) {
      const res = await create({ ...valid, url });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().errors[0], url).toContain('private');
    }
    for (const url of ['https://8.8.8.8/hook', 'http://[2606:4700::1111]/x', 'https://localhost.example.com/']) {
      expect((await create({ ...valid, url })).statusCode, url).toBe(201);
    }
    const created = (await create(valid)).json();
    const changed = await h.request({ method: 'PUT', url: `/api/admin/webhooks/${created.id}`, payload: { url: 'http://127.0.0.1/' } });
    expect(changed.statusCode).toBe(422);
  });

  it('lets a weaker member read nothing and change nothing (403), and webhooks.read read only', async () => {
    const created = (await create(valid)).json();
    const weak = await memberToken(h, [{ key: 'account_user' }]);
    const realmAdmin = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    for (const token of [weak, realmAdmin]) {
      expect((await h.request({ method: 'GET', url: '/api/admin/webhooks', token })).statusCode).toBe(403);
      expect((await h.request({ method: 'GET', url: `/api/admin/webhooks/${created.id}`, token })).statusCode).toBe(403);
      expect((await h.request({ method: 'GET', url: '/api/admin/webhooks/event_types', token })).statusCode).toBe(403);
      expect((await create(valid, token)).statusCode).toBe(403);
      expect((await h.request({ method: 'POST', url: `/api/admin/webhooks/${created.id}/rotate_secret`, token })).statusCode).toBe(403);
      expect((await h.request({ method: 'DELETE', url: `/api/admin/webhooks/${created.id}`, token })).statusCode).toBe(403);
    }
    const role = await h.request({ method: 'POST', url: '/api/admin/roles', payload: { key: 'webhook_reader', name: 'Webhook reader', context: 'account', permissions: ['webhooks.read'] } });
    expect(role.statusCode, role.body).toBe(201);
    const reader = await memberToken(h, [{ key: 'webhook_reader' }]);
    expect((await h.request({ method: 'GET', url: `/api/admin/webhooks/${created.id}`, token: reader })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: `/api/admin/webhooks/${created.id}/deliveries`, token: reader })).statusCode).toBe(200);
    expect((await h.request({ method: 'PUT', url: `/api/admin/webhooks/${created.id}`, payload: { active: false }, token: reader })).statusCode).toBe(403);
    expect((await h.request({ method: 'POST', url: `/api/admin/webhooks/${created.id}/rotate_secret`, token: reader })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/webhooks', token: null })).statusCode).toBe(401);
  });

  it('takes 50 parallel creations, each with its own secret', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => create(valid)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((a) => a.json().secret)).size).toBe(50);
  });
});
