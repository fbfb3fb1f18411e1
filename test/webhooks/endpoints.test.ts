import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, refusal, statusOf } from '../helpers/client.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';

let h: Harness;
let realm: { uid: string };

beforeAll(async () => {
  h = await startHarness();
  realm = await makeRealm(h);
});
afterAll(async () => { await h?.close(); });

type Endpoint = { url?: string; description?: string; event_types?: string[]; realm_uids?: 'all' | string[]; active?: boolean };
const admin = (token?: string | null) => adminClient(h, token);
const create = (body: Endpoint, token?: string) => admin(token).POST('/webhooks', { body });
const byId = (id: number) => ({ params: { path: { id } } });
const valid = { url: 'https://hooks.example.com/atrium', event_types: ['realm_user.updated'] };

describe('webhook endpoints', () => {
  it('creates an endpoint, shows its secret once, and never again', async () => {
    const res = await create({ ...valid, description: 'CRM sync', realm_uids: [realm.uid] });
    expect(res.response.status).toBe(201);
    const body = res.data!;
    expect(body).toMatchObject({ url: valid.url, description: 'CRM sync', event_types: ['realm_user.updated'], realm_uids: [realm.uid], active: true, disabled_reason: null, failing_since: null });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);

    const shown = await admin().GET('/webhooks/{id}', byId(body.id));
    expect(shown.response.status).toBe(200);
    expect(JSON.stringify(shown.data)).not.toContain(body.secret.slice(6, 20));
    expect(shown.data).not.toHaveProperty('secret');
    const { data: list } = await admin().GET('/webhooks');
    expect(list!.webhooks.map((w) => w.id)).toContain(body.id);
    expect(JSON.stringify(list)).not.toContain('whsec_');
    expect(list!.meta).toMatchObject({ current_page: 1 });
  });

  it('defaults realm_uids to "all", changes partially, deletes', async () => {
    const created = (await create(valid)).data!;
    expect(created.realm_uids).toBe('all');
    const changed = await admin().PUT('/webhooks/{id}', { ...byId(created.id), body: { description: 'new', active: false } });
    expect(changed.response.status).toBe(200);
    expect(changed.data).toMatchObject({ url: valid.url, description: 'new', active: false, realm_uids: 'all' });
    expect(changed.data).not.toHaveProperty('secret');
    const { data: back } = await admin().PUT('/webhooks/{id}', { ...byId(created.id), body: { realm_uids: [realm.uid] } });
    expect(back!.realm_uids).toEqual([realm.uid]);
    expect(await statusOf(admin().DELETE('/webhooks/{id}', byId(created.id)))).toBe(204);
    expect(await statusOf(admin().GET('/webhooks/{id}', byId(created.id)))).toBe(404);
    expect(await statusOf(admin().DELETE('/webhooks/{id}', byId(created.id)))).toBe(404);
  });

  it('rotates the secret: a new one, shown once, the previous one signing for 24 hours', async () => {
    const created = (await create(valid)).data!;
    const rotated = await admin().POST('/webhooks/{id}/rotate_secret', byId(created.id));
    expect(rotated.response.status).toBe(200);
    expect(rotated.data!.secret).toMatch(/^whsec_/);
    expect(rotated.data!.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.data!.previous_secret_expires_at!) - h.clock.now().getTime()).toBe(86_400_000);
    expect(await statusOf(admin().POST('/webhooks/{id}/rotate_secret', byId(999999)))).toBe(404);
  });

  it('lists every event type: admin-side, built-in business types and custom types of each realm', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const recorded = await admin().POST('/customers/{realm_uid}/users/{id}/events', { params: { path: { realm_uid: realm.uid, id: user.id } }, body: { type: 'points_earned' } });
    expect(recorded.response.status).toBe(201);
    const res = await admin().GET('/webhooks/event_types');
    expect(res.response.status).toBe(200);
    const types = res.data!.event_types;
    const kinds = Object.fromEntries(types.map((t) => [t.type, t.kind]));
    for (const type of ['realm_user.created', 'realm_user.updated', 'realm_user.deleted', 'submission.status_changed', 'delivery.completed', 'entry.published', 'entry.unpublished']) {
      expect(kinds[type]).toBe('admin');
    }
    expect(kinds.user_login_log).toBe('business');
    expect(types.find((t) => t.type === 'points_earned')).toMatchObject({ kind: 'custom', realm_uids: [realm.uid] });
    // A custom type recorded somewhere can be subscribed to; an unknown one is named in the 422.
    expect(await statusOf(create({ ...valid, event_types: ['points_earned', 'user_login_log'] }))).toBe(201);
    expect((await refusal(create({ ...valid, event_types: ['points_earned', 'points_spent', 'user_login_log'] }))).body.errors[0]).toContain('points_spent');
    const bad = await refusal(create({ ...valid, event_types: ['realm_user.updated', 'realm_user.updtaed'] }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toContain('realm_user.updtaed');
    expect(bad.body.details![0].field).toBe('event_types');
  });

  it('refuses bad input with 422 naming the attribute', async () => {
    const cases: [Endpoint, string][] = [
      [{ event_types: ['realm_user.updated'] }, 'url'],
      [{ url: valid.url }, 'event_types'],
      [{ ...valid, event_types: [] }, 'event_types'],
      [{ ...valid, url: 'ftp://example.com/x' }, 'url'],
      [{ ...valid, url: 'not a url' }, 'url'],
      [{ ...valid, url: 'https://user:pass@example.com/x' }, 'url'],
      [{ ...valid, url: `https://example.com/${'a'.repeat(3000)}` }, 'url'],
      [{ ...valid, realm_uids: ['nope'] }, 'realm_uids'],
      [{ ...valid, realm_uids: [] }, 'realm_uids'],
      [{ ...valid, description: 'x'.repeat(1001) }, 'description'],
      [{ ...valid, event_types: Array.from({ length: 201 }, () => 'user_login_log') }, 'event_types'],
    ];
    for (const [payload, field] of cases) {
      const res = await refusal(create(payload));
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(422);
      expect(res.body.details!.map((d) => d.field), JSON.stringify(res.body)).toContain(field);
    }
    // Raw: bodies the client's types refuse (realm_uids not "all" nor a list, a secret of one's own).
    for (const [payload, field] of [[{ ...valid, realm_uids: 'some' }, 'realm_uids'], [{ ...valid, secret: 'whsec_mine' }, 'secret']] as const) {
      const res = await h.request({ method: 'POST', url: '/api/admin/webhooks', payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field), res.body).toContain(field);
    }
    const nul = await statusOf(create({ ...valid, description: 'a\u0000b' }));
    expect(nul).toBe(400);
    // Raw: ids that are not numbers in the path, which the typed path parameter would not take.
    for (const id of ['0', '-1', '99999999999999999999', 'abc', '1e400']) {
      expect((await h.request({ method: 'GET', url: `/api/admin/webhooks/${id}` })).statusCode, id).toBe(422);
    }
    expect((await h.request({ method: 'POST', url: '/api/admin/webhooks/deliveries/99999999999999999999/retry' })).statusCode).toBe(422);
    expect(await statusOf(admin().POST('/webhooks/deliveries/{id}/retry', byId(123456)))).toBe(404);
  });

  it('refuses IP literals in private, loopback and link-local ranges (WEBHOOKS_ALLOW_PRIVATE off)', async () => {
    const refused = [
      'http://127.0.0.1:8080/x', 'http://10.1.2.3/', 'http://172.20.0.1/', 'http://192.168.1.1/', 'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/', 'http://0.0.0.0/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[fc00::1]/', 'http://[fd12::1]/',
      'http://[fe80::1]/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::]/', 'http://[::127.0.0.1]/', 'https://224.0.0.1/',
    ];
    for (const url of refused) {
      const res = await refusal(create({ ...valid, url }));
      expect(res.status, url).toBe(422);
      expect(res.body.errors[0], url).toContain('private');
    }
    for (const url of ['https://8.8.8.8/hook', 'http://[2606:4700::1111]/x', 'https://localhost.example.com/']) {
      expect(await statusOf(create({ ...valid, url })), url).toBe(201);
    }
    const created = (await create(valid)).data!;
    expect(await statusOf(admin().PUT('/webhooks/{id}', { ...byId(created.id), body: { url: 'http://127.0.0.1/' } }))).toBe(422);
  });

  it('lets a weaker member read nothing and change nothing (403), and webhooks.read read only', async () => {
    const created = (await create(valid)).data!;
    const weak = await memberToken(h, [{ key: 'account_user' }]);
    const realmAdmin = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    for (const token of [weak, realmAdmin]) {
      expect(await statusOf(admin(token).GET('/webhooks'))).toBe(403);
      expect(await statusOf(admin(token).GET('/webhooks/{id}', byId(created.id)))).toBe(403);
      expect(await statusOf(admin(token).GET('/webhooks/event_types'))).toBe(403);
      expect(await statusOf(create(valid, token))).toBe(403);
      expect(await statusOf(admin(token).POST('/webhooks/{id}/rotate_secret', byId(created.id)))).toBe(403);
      expect(await statusOf(admin(token).POST('/webhooks/{id}/test', byId(created.id)))).toBe(403);
      expect(await statusOf(admin(token).DELETE('/webhooks/{id}', byId(created.id)))).toBe(403);
    }
    const role = await admin().POST('/roles', { body: { key: 'webhook_reader', name: 'Webhook reader', context: 'account', permissions: ['webhooks.read'] } });
    expect(role.response.status).toBe(201);
    const reader = admin(await memberToken(h, [{ key: 'webhook_reader' }]));
    expect(await statusOf(reader.GET('/webhooks/{id}', byId(created.id)))).toBe(200);
    expect(await statusOf(reader.GET('/webhooks/{id}/deliveries', byId(created.id)))).toBe(200);
    expect(await statusOf(reader.PUT('/webhooks/{id}', { ...byId(created.id), body: { active: false } }))).toBe(403);
    expect(await statusOf(reader.POST('/webhooks/{id}/rotate_secret', byId(created.id)))).toBe(403);
    expect(await statusOf(reader.POST('/webhooks/{id}/test', byId(created.id)))).toBe(403);
    expect(await statusOf(admin(null).GET('/webhooks'))).toBe(401);
  });

  it('takes 50 parallel creations, each with its own secret', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => create(valid)));
    expect(answers.map((a) => a.response.status)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((a) => a.data!.secret)).size).toBe(50);
  });
});
