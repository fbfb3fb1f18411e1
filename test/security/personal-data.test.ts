import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainSending } from '../../src/messaging/worker.js';
import { createMember, type Member } from '../helpers/admin.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { deliver, makeCampaign } from '../messaging/fixtures.js';
import { LOAN, makeOrigination, startFor, tasksOf } from '../originations/fixtures.js';
import { walkAdminCatalog, type Seed } from './catalog-walk.js';

const CANARY = 'leak-canary-7f3@example.com';
const DRAFT_PREVIEW = '/api/admin/messaging/campaigns/preview';
const COUNT = '/api/admin/segments/count_matches';
const MESSAGES = '/api/admin/messaging/message_deliveries';
const TEMPLATE = { type: 'mailing', subject: 'For {{ user.email }}', body: '<p>{{ user.name }} {{ user.email }} {{ user.custom_fields.nickname }}</p>' };

/**
 * DESIGN.md "Personal data": what shows a realm user's data, or counts over personal attributes, needs
 * realm.users.read on the realm, whatever else it needs (issue 25, section 4).
 */
describe('no per-user data through side doors', () => {
  let h: Harness;
  let realm: { uid: string };
  let canary: { id: number; email: string };
  let campaign: { id: number };
  let notice: { id: number };
  let segment: { id: number };
  /** The built-in "Default user" role: messaging.read and segments.read, not realm.users.read. */
  let defaultUser: Member;
  /** The Default user role and realm.users.read besides. */
  let userReader: Member;

  const role = async (name: string, permissions: string[]) => {
    const res = await h.request({ method: 'POST', url: '/api/admin/roles', payload: { name, context: 'account', permissions } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; key: string };
  };
  const post = (member: Member, url: string, payload: unknown) => h.request({ method: 'POST', url, token: member.token, payload: payload as object });

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
    for (const [key, type] of [['nickname', 'text'], ['plan', 'dropdown']]) {
      const field = await h.request({
        method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`,
        payload: { key, name: key, type, ...(type === 'dropdown' ? { options: ['basic', 'premium'] } : {}) },
      });
      expect(field.statusCode, field.body).toBe(201);
    }
    canary = await makeRealmUser(h, realm.uid, {
      email: CANARY, first_name: 'Carla', last_name: 'Canarywood',
      custom_fields: [{ key: 'nickname', value: 'canary' }, { key: 'plan', value: 'premium' }],
    });
    const seg = await h.request({ method: 'POST', url: '/api/admin/segments', payload: { name: 'Premium', realm_uid: realm.uid, filters: { attribute: 'custom_fields.plan', operator: 'eq', value: 'premium' } } });
    expect(seg.statusCode, seg.body).toBe(201);
    segment = seg.json();
    campaign = await makeCampaign(h, realm.uid, TEMPLATE);
    notice = await makeCampaign(h, realm.uid, { ...TEMPLATE, name: 'Notice', type: 'notification', body: 'Yours: {{ user.email }}' });
    await deliver(h, campaign.id);
    await deliver(h, notice.id);
    await drainSending(h.ctx);
    defaultUser = await createMember(h, [{ key: 'account_user' }]);
    userReader = await createMember(h, [{ key: 'account_user' }, { key: (await role('User reader', ['realm.users.read'])).key }]);
  });
  afterAll(async () => { await h?.close(); });

  it('refuses a campaign preview for a user to the Default user role (messaging.read only) and answers it with realm.users.read', async () => {
    const draft = { realm_uid: realm.uid, ...TEMPLATE, user_id: canary.id };
    const refused = await post(defaultUser, DRAFT_PREVIEW, draft);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0]).toMatch(/realm\.users\.read/);
    expect(refused.body).not.toContain(CANARY);
    const saved = `/api/admin/messaging/campaigns/${campaign.id}/preview`;
    expect((await post(defaultUser, saved, { user_id: canary.id })).statusCode).toBe(403);
    // realm.users.read on another realm is not enough.
    const elsewhere = await createMember(h, [{ key: 'account_user' }, { key: 'realm_viewer', target: (await makeRealm(h)).uid }]);
    expect((await post(elsewhere, DRAFT_PREVIEW, draft)).statusCode).toBe(403);
    const shown = await post(userReader, DRAFT_PREVIEW, draft);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().subject).toBe(`For ${CANARY}`);
    expect((await post(userReader, saved, { user_id: canary.id })).json()).toEqual(shown.json());
    // A realm role carrying both reaches its realm.
    const viewer = await createMember(h, [{ key: 'realm_viewer', target: realm.uid }]);
    expect((await post(viewer, saved, { user_id: canary.id })).statusCode).toBe(200);
  });

  it('refuses counts over an email, a name or a free-text field to segments.read alone; other attributes are still counted', async () => {
    const count = (member: Member, filters: object) => post(member, COUNT, { realm_uid: realm.uid, filters });
    const personal = [
      { attribute: 'email', operator: 'starts_with', value: 'leak-c' },
      { attribute: 'username', operator: 'starts_with', value: 'l' },
      { attribute: 'first_name', operator: 'eq', value: 'Carla' },
      { attribute: 'last_name', operator: 'contains', value: 'wood' },
      { attribute: 'custom_fields.nickname', operator: 'eq', value: 'canary' },
      { not: { any: [{ attribute: 'active', operator: 'is', value: true }, { attribute: 'email', operator: 'is_set' }] } },
    ];
    for (const filters of personal) {
      const res = await count(defaultUser, filters);
      expect(res.statusCode, JSON.stringify(filters)).toBe(403);
      expect(res.json().errors[0]).toMatch(/realm\.users\.read/);
    }
    for (const filters of [
      { attribute: 'active', operator: 'is', value: true },
      { attribute: 'custom_fields.plan', operator: 'eq', value: 'premium' },
      { attribute: 'created_at', operator: 'within_last_days', value: 30 },
    ]) {
      const res = await count(defaultUser, filters);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().matches_count).toBe(1);
    }
    expect((await count(userReader, personal[0])).json()).toEqual({ matches_count: 1 });
  });

  it('refuses to make or change a segment whose count reads personal attributes without realm.users.read', async () => {
    const manager = await createMember(h, [{ key: (await role('Segment manager', ['segments.read', 'segments.manage'])).key }]);
    const email = { attribute: 'email', operator: 'starts_with', value: 'leak' };
    expect((await post(manager, '/api/admin/segments', { name: 'Probe', realm_uid: realm.uid, filters: email })).statusCode).toBe(403);
    expect((await post(manager, '/api/admin/segments/apply_filters', { realm_uid: realm.uid, filters: email })).statusCode).toBe(403);
    const change = (filters: object) => h.request({ method: 'PUT', url: `/api/admin/segments/${segment.id}`, token: manager.token, payload: { filters } });
    expect((await change(email)).statusCode).toBe(403);
    expect((await change({ attribute: 'active', operator: 'is', value: true })).statusCode).toBe(200);
    expect((await post(manager, '/api/admin/segments/apply_filters', { realm_uid: realm.uid, filters: { attribute: 'active', operator: 'is', value: true } })).statusCode).toBe(201);
  });

  it('lists messages naming their users only where realm.users.read is held', async () => {
    const refused = await h.request({ method: 'GET', url: MESSAGES, token: defaultUser.token });
    expect(refused.statusCode).toBe(403);
    const listed = await h.request({ method: 'GET', url: `${MESSAGES}?campaign_id=${campaign.id}`, token: userReader.token });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().message_deliveries.map((m: { user_email: string }) => m.user_email)).toEqual([CANARY]);
    // Messaging on two realms, users on one: the other realm's messages are left out.
    const other = await makeRealm(h);
    await makeRealmUser(h, other.uid);
    await deliver(h, (await makeCampaign(h, other.uid)).id);
    await drainSending(h.ctx);
    const split = await createMember(h, [{ key: 'realm_viewer', target: realm.uid }, { key: 'account_user' }]);
    const mine = await h.request({ method: 'GET', url: `${MESSAGES}?per_page=100`, token: split.token });
    expect(new Set(mine.json().message_deliveries.map((m: { campaign_name: string; user_email: string }) => m.user_email))).toEqual(new Set([CANARY]));
  });

  it('refuses the realm\'s event log, a user\'s inbox and a user\'s changes to a role without realm.users.read', async () => {
    const activity = await createMember(h, [{ key: (await role('Activity', ['realm.activity.read', 'realm.users.write'])).key }]);
    const get = (url: string) => h.request({ method: 'GET', url, token: activity.token });
    expect((await get(`/api/admin/customers/${realm.uid}/events`)).statusCode).toBe(403);
    expect((await get(`/api/admin/customers/${realm.uid}/users/${canary.id}/notifications`)).statusCode).toBe(403);
    const changed = await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${canary.id}`, token: activity.token, payload: {} });
    expect(changed.statusCode).toBe(403);
    expect(changed.body).not.toContain(CANARY);
  });

  it('refuses a webhook endpoint that would be sent users\' data to a role without realm.users.read', async () => {
    const hooks = await createMember(h, [{ key: (await role('Hooks', ['webhooks.read', 'webhooks.manage'])).key }]);
    const url = 'https://hooks.example.com/atrium';
    for (const event_types of [['realm_user.created'], ['user_login_log'], ['entry.published', 'realm_user.updated']]) {
      expect((await post(hooks, '/api/admin/webhooks', { url, event_types, realm_uids: [realm.uid] })).statusCode).toBe(403);
    }
    // Events that carry ids only are open to it; turning one towards users' data later is not.
    const entries = await post(hooks, '/api/admin/webhooks', { url, event_types: ['entry.published'], realm_uids: 'all' });
    expect(entries.statusCode, entries.body).toBe(201);
    const turned = await h.request({
      method: 'PUT', url: `/api/admin/webhooks/${entries.json().id}`, token: hooks.token, payload: { event_types: ['realm_user.deleted'] },
    });
    expect(turned.statusCode).toBe(403);
    const reader = await createMember(h, [{ key: (await role('Hooks and users', ['webhooks.read', 'webhooks.manage', 'realm.users.read'])).key }]);
    expect((await post(reader, '/api/admin/webhooks', { url, event_types: ['realm_user.created'], realm_uids: 'all' })).statusCode).toBe(201);
  });

  it('walks every operation of the admin catalog as a member holding every permission but realm.users.read: no answer carries the user\'s email', async () => {
    const contexts: { context: string; permissions: { key: string }[] }[] = (await h.request({ method: 'GET', url: '/api/admin/roles/permissions' })).json().contexts;
    const all = contexts.find((c) => c.context === 'account')!.permissions.map((p) => p.key);
    const everythingBut = await role('Everything but users', all.filter((p) => p !== 'realm.users.read'));
    const walker = await createMember(h, [{ key: everythingBut.key }]);
    // What the walk may change or remove without cutting its own branch: not the walker, its role or its application.
    const bystander = await createMember(h, []);
    const spareRole = await role('Spare', ['team.read']);
    const spareApp = (await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Spare' } })).json();
    const event = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${canary.id}/events`, payload: { type: 'offer_seen' } });
    expect(event.statusCode, event.body).toBe(201);
    const notification = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${canary.id}/notifications`, payload: { subject: 'Hi' } });
    const origination = await makeOrigination(h, realm.uid);
    const submission = await startFor(h, realm.uid, origination.id, canary.id);
    const group = (await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/groups`, payload: { name: 'Reviewers', member_ids: [h.ownerId] } })).json();
    const webhook = await h.request({ method: 'POST', url: '/api/admin/webhooks', payload: { url: 'https://hooks.example.test/in', event_types: ['realm_user.created'] } });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const messages = (await h.request({ method: 'GET', url: `${MESSAGES}?per_page=100` })).json().message_deliveries as { delivery_id: number }[];
    const seed: Seed = {
      realmUid: realm.uid,
      ids: {
        users: [canary.id], campaigns: [campaign.id, notice.id], deliveries: [...new Set(messages.map((m) => m.delivery_id))],
        segments: [segment.id], notifications: [notification.json().id], team_members: [bystander.id], roles: [spareRole.id],
        applications: [spareApp.id], originations: [origination.id], submissions: [submission.id], tasks: tasksOf(origination).map((t) => t.uid),
        groups: [group.id], webhooks: [webhook.json().id],
      },
      query: { user_id: canary.id, campaign_id: campaign.id, realm_uid: realm.uid },
      hints: {
        realm_uid: realm.uid, user_id: canary.id, campaign_id: campaign.id, segment_ids: [segment.id],
        filters: { attribute: 'email', operator: 'contains', value: 'leak' }, ...TEMPLATE, name: 'Walk', steps: LOAN.steps,
      },
    };

    // The same walk as the owner shows the email where it should: the walk does reach the user.
    const owner = await walkAdminCatalog(h, h.ownerToken, seed, { readOnly: true });
    const shownToOwner = owner.filter((a) => a.body.includes(CANARY)).map((a) => a.operation);
    expect(shownToOwner).toEqual(expect.arrayContaining([
      'GET /customers/{realm_uid}/users/{id}', 'GET /customers/{realm_uid}/events', 'GET /customers/{realm_uid}/users/{id}/notifications',
      'GET /messaging/message_deliveries', 'POST /messaging/campaigns/preview', 'POST /messaging/campaigns/{id}/preview',
      'POST /segments/preview_matches',
    ]));

    const answers = await walkAdminCatalog(h, walker.token, seed, { readOnly: false });
    expect(answers.length).toBeGreaterThan(150);
    expect(answers.filter((a) => a.body.includes(CANARY)).map((a) => `${a.operation} answered ${a.status}`)).toEqual([]);
    // The walk was a real one: reads of what was seeded answered, and the walker's credential held to the end.
    const answered = new Set(answers.filter((a) => a.status < 300).map((a) => a.operation));
    for (const operation of ['GET /messaging/campaigns/{id}', 'GET /segments/{id}', 'GET /customers/{realm_uid}/submissions/{id}', 'GET /webhooks/{id}/deliveries']) {
      expect(answered, operation).toContain(operation);
    }
    expect((await h.request({ method: 'GET', url: '/api/admin/session', token: walker.token })).statusCode).toBe(200);
    for (const operation of ['POST /messaging/campaigns/preview', 'POST /segments/count_matches', 'GET /messaging/message_deliveries']) {
      expect(answers.find((a) => a.operation === operation)?.status, operation).toBe(403);
    }
  }, 180_000);
});
