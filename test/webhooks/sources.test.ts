import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contentScheduleJob } from '../../src/content/entries/publishing.js';
import type { Db } from '../../src/db/connect.js';
import { recordEvent } from '../../src/events/events.js';
import { runDueJobs } from '../../src/jobs/runner.js';
import { drainSending } from '../../src/messaging/worker.js';
import { realms } from '../../src/tables/realms.js';
import { webhookDeliveries } from '../../src/tables/webhooks.js';
import { drainWebhooks } from '../../src/webhooks/worker.js';
import { makeSpace, makeType } from '../helpers/content.js';
import { CookieJar, inputValue } from '../helpers/cookie-jar.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage, signOutAtLogoutPage } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';
import { mailText, startSmtp, type SmtpListener } from '../helpers/smtp.js';
import { entryClient } from '../content/entry-helpers.js';
import { deliver, makeCampaign, showDelivery } from '../messaging/fixtures.js';
import { LOAN, admin, makeOrigination, startFor } from '../originations/fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

/** What the sources deliver (notes/events.md): `{type, timestamp, data}`, signed. */
interface Payload {
  type: string;
  timestamp: string;
  data: Record<string, any>;
}

let h: Harness;
let receiver: Receiver;
let realm: { uid: string };
let other: { uid: string };
let smtp: SmtpListener;
/** The server on a real port, for the realm pages' browsers. */
let base: string;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({ WEBHOOKS_ALLOW_PRIVATE: '1', SMTP_URL: smtp.url });
  receiver = await startReceiver(h.clock);
  realm = await makeRealm(h);
  other = await makeRealm(h);
  base = await listen(h);
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
  await smtp?.close();
});
// Each test subscribes endpoints of its own: none outlives it.
afterEach(async () => {
  const list = await h.request({ method: 'GET', url: '/api/admin/webhooks?per_page=100' });
  for (const endpoint of list.json().webhooks as { id: number }[]) {
    expect((await h.request({ method: 'DELETE', url: `/api/admin/webhooks/${endpoint.id}` })).statusCode).toBe(204);
  }
  receiver.received.length = 0;
});

/** An endpoint of the local receiver for these types (of these realms, or all); its secret is given to the receiver to verify with. */
async function subscribe(eventTypes: string[], realmUids?: string[]): Promise<void> {
  const res = await h.request({
    method: 'POST', url: '/api/admin/webhooks',
    payload: { url: `${receiver.url}/hook`, event_types: eventTypes, ...(realmUids ? { realm_uids: realmUids } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  receiver.secrets.push(res.json().secret);
}

/**
 * Sends what the outbox holds and answers what reached the receiver since the last call, every request
 * signed, in the order the changes put them in the outbox (the senders send side by side).
 */
async function delivered(): Promise<Payload[]> {
  await drainWebhooks(h.ctx);
  const got = receiver.received.splice(0);
  for (const request of got) expect(request.verifiedWith, request.body).toHaveLength(1);
  const rows = got.length ? await h.ctx.db.select({ id: webhookDeliveries.id, msgId: webhookDeliveries.msgId }).from(webhookDeliveries)
    .where(inArray(webhookDeliveries.msgId, got.map((r) => r.id))) : [];
  const order = new Map(rows.map((r) => [r.msgId, r.id]));
  return got.sort((a, b) => order.get(a.id)! - order.get(b.id)!).map((request) => JSON.parse(request.body) as Payload);
}

const outboxSize = async () => (await h.ctx.db.select({ n: count() }).from(webhookDeliveries))[0].n;

const userUrl = (uid: string, id?: number) => `/api/admin/customers/${uid}/users${id === undefined ? '' : `/${id}`}`;

describe('webhook sources', () => {
  it('realm_user.created, .updated (with `changed`) and .deleted from the admin API, with the user as the API shows it', async () => {
    await subscribe(['realm_user.created', 'realm_user.updated', 'realm_user.deleted']);
    const created = await makeRealmUser(h, realm.uid, { username: 'grace' });
    const [create] = await delivered();
    expect(create.type).toBe('realm_user.created');
    expect(Date.parse(create.timestamp)).toBe(h.clock.now().getTime());
    expect(create.data).toEqual({ ...created, realm_uid: realm.uid });

    h.clock.advanceMinutes(1);
    const changed = await h.request({ method: 'PUT', url: userUrl(realm.uid, created.id), payload: { first_name: 'Grace', password: 'another long secret 2' } });
    expect(changed.statusCode, changed.body).toBe(200);
    const [update] = await delivered();
    expect(update.type).toBe('realm_user.updated');
    expect(update.data).toEqual({ ...changed.json(), realm_uid: realm.uid, changed: ['first_name', 'password'] });
    expect(JSON.stringify(update)).not.toContain('another long secret');

    // A PUT that changes nothing is no event.
    expect((await h.request({ method: 'PUT', url: userUrl(realm.uid, created.id), payload: { first_name: 'Grace' } })).statusCode).toBe(200);
    expect(await delivered()).toEqual([]);

    expect((await h.request({ method: 'PUT', url: userUrl(realm.uid, created.id), payload: { active: false } })).statusCode).toBe(200);
    const activated = await h.request({ method: 'POST', url: `${userUrl(realm.uid, created.id)}/activate` });
    expect(activated.statusCode, activated.body).toBe(200);
    const [deactivation, activation] = await delivered();
    expect(deactivation.data.changed).toEqual(['active']);
    expect(activation.data).toEqual({ ...activated.json(), realm_uid: realm.uid, changed: ['active'] });

    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    const form = Buffer.concat([
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n'), png, Buffer.from('\r\n--XyZ--\r\n'),
    ]);
    const avatar = await h.request({
      method: 'PUT', url: `${userUrl(realm.uid, created.id)}/avatar`, headers: { 'content-type': 'multipart/form-data; boundary=XyZ' }, payload: form,
    });
    expect(avatar.statusCode, avatar.body).toBe(200);
    expect((await h.request({ method: 'DELETE', url: `${userUrl(realm.uid, created.id)}/avatar` })).statusCode).toBe(204);
    const [set, removed] = await delivered();
    expect(set.data).toEqual({ ...avatar.json(), realm_uid: realm.uid, changed: ['avatar'] });
    expect(removed.data).toMatchObject({ avatar: null, changed: ['avatar'] });

    expect((await h.request({ method: 'DELETE', url: userUrl(realm.uid, created.id) })).statusCode).toBe(204);
    const [deletion] = await delivered();
    expect(deletion).toMatchObject({ type: 'realm_user.deleted', data: { id: created.id, uuid: created.uuid, email: created.email, realm_uid: realm.uid } });
    expect(Object.keys(deletion.data).sort()).toEqual(['email', 'id', 'realm_uid', 'uuid']);
  });

  it('realm_user.* from the customers side: sign-up at the realm page and PUT /me', async () => {
    await subscribe(['realm_user.created', 'realm_user.updated']);
    const jar = new CookieJar(base);
    const page = await (await jar.fetch(`/realms/${realm.uid}/signup`)).text();
    const signedUp = await jar.post(`/realms/${realm.uid}/signup`, {
      redirect_uri: inputValue(page, 'redirect_uri') ?? '', csrf_token: inputValue(page, 'csrf_token') ?? '',
      email: 'newcomer@example.com', password: REALM_USER_PASSWORD,
    });
    expect(signedUp.status).toBeLessThan(400);
    const [create] = await delivered();
    expect(create).toMatchObject({ type: 'realm_user.created', data: { email: 'newcomer@example.com', realm_uid: realm.uid } });
    const shown = await h.request({ method: 'GET', url: userUrl(realm.uid, create.data.id) });
    expect(create.data).toEqual({ ...shown.json(), realm_uid: realm.uid });

    const cookie = await signInAtLoginPage(h, realm.uid, 'newcomer@example.com', REALM_USER_PASSWORD);
    h.clock.advanceMinutes(1);
    const me = await h.request({ method: 'PUT', url: '/api/profile/me', token: null, headers: { cookie }, payload: { first_name: 'Newt', username: 'newt' } });
    expect(me.statusCode, me.body).toBe(200);
    const [update] = await delivered();
    const after = await h.request({ method: 'GET', url: userUrl(realm.uid, create.data.id) });
    expect(update).toMatchObject({ type: 'realm_user.updated' });
    expect(update.data).toEqual({ ...after.json(), realm_uid: realm.uid, changed: ['username', 'first_name'] });

    // The password changed from the profile page (the sign-up left this browser signed in); a wrong current one changes nothing.
    const profile = await (await jar.fetch(`/realms/${realm.uid}/profile`)).text();
    const change = (current: string) => jar.post(`/realms/${realm.uid}/profile/password`, {
      csrf_token: inputValue(profile, 'csrf_token') ?? '', current, password: 'a new long secret 3', confirmation: 'a new long secret 3',
    });
    expect((await change('not my password')).status).toBe(401);
    expect((await change(REALM_USER_PASSWORD)).status).toBe(303);
    expect((await delivered()).map((p) => [p.type, p.data.id, p.data.changed])).toEqual([['realm_user.updated', create.data.id, ['password']]]);
  });

  it('realm_user.created from an accepted invitation, with its user_signup_log', async () => {
    await subscribe(['realm_user.created', 'user_signup_log'], [realm.uid]);
    const invited = await h.request({ method: 'POST', url: `${userUrl(realm.uid)}/invitations`, payload: { email: 'invited@example.com' } });
    expect(invited.statusCode, invited.body).toBe(201);
    const jar = new CookieJar(base);
    // listen() moved BASE_URL to the real port: the link's path is what matters.
    const link = /\/realms\/[^/\s]+\/signup\?invitation=[\w-]{43}/.exec(mailText(await smtp.next('invited@example.com')))![0];
    const page = await (await jar.fetch(link)).text();
    const accepted = await jar.post(`/realms/${realm.uid}/signup`, {
      invitation: inputValue(page, 'invitation') ?? '', csrf_token: inputValue(page, 'csrf_token') ?? '', password: REALM_USER_PASSWORD,
    });
    expect(accepted.status).toBe(303);
    const [create, signup] = await delivered();
    const shown = await h.request({ method: 'GET', url: userUrl(realm.uid, create.data.id) });
    expect(create).toMatchObject({ type: 'realm_user.created', data: { ...shown.json(), realm_uid: realm.uid } });
    expect(signup).toMatchObject({ type: 'user_signup_log', data: { user_id: create.data.id, properties: { activation_mode: 'direct', invited: true } } });
  });

  it('business events under their own type, built-in (the sign-in) and custom, as the admin events API shows them', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const custom = await h.request({ method: 'POST', url: `${userUrl(realm.uid, user.id)}/events`, payload: { type: 'points_earned', properties: { points: 5 } } });
    expect(custom.statusCode, custom.body).toBe(201);
    await subscribe(['user_login_log', 'points_earned']);

    await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const again = await h.request({ method: 'POST', url: `${userUrl(realm.uid, user.id)}/events`, payload: { type: 'points_earned', properties: { points: 7 } } });
    const [login, points] = await delivered();
    const log = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/events?user_id=${user.id}&type=user_login_log` });
    expect(login.type).toBe('user_login_log');
    expect(login.data).toEqual({ ...log.json().events[0], realm_uid: realm.uid, user_id: user.id });
    expect(points.type).toBe('points_earned');
    expect(points.data).toEqual({ ...again.json(), realm_uid: realm.uid, user_id: user.id });

    // A type the endpoint does not subscribe to is not sent, nor written to the outbox.
    const before = await outboxSize();
    const cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    expect(await outboxSize()).toBe(before + 1);
    await signOutAtLogoutPage(h, realm.uid, cookie);
    expect((await delivered()).map((p) => p.type)).toEqual(['user_login_log']);
  });

  it('an endpoint of one realm gets only that realm\'s events, and no event of content (of no realm)', async () => {
    await subscribe(['realm_user.created', 'entry.published'], [other.uid]);
    await makeRealmUser(h, realm.uid);
    const mine = await makeRealmUser(h, other.uid);
    const space = await makeSpace(h);
    const type = await makeType(h, space.uid, { fields: [{ name: 'title', type: 'text' }] });
    const entries = entryClient(h, space.uid, type.uid);
    const entry = await entries.created({ name: 'Launch', fields: { title: 'Hello' } });
    expect((await entries.post(entry.meta.uuid, 'publish')).statusCode).toBe(200);
    const got = await delivered();
    expect(got.map((p) => [p.type, p.data.id])).toEqual([['realm_user.created', mine.id]]);
  });

  it('submission.status_changed with each status change: made, started, canceled, completed', async () => {
    await subscribe(['submission.status_changed']);
    const user = await makeRealmUser(h, realm.uid);
    const origination = await makeOrigination(h, realm.uid, LOAN);
    const started = await startFor(h, realm.uid, origination.id, user.id);
    const canceled = await admin(h, 'POST', `/customers/${realm.uid}/submissions/${started.id}/cancel`, { reason: 'Duplicate' });
    expect(canceled.statusCode, canceled.body).toBe(200);
    const same = { id: started.id, uuid: started.uuid, origination_uuid: origination.uuid, user_id: user.id, realm_uid: realm.uid };
    expect(await delivered()).toMatchObject([
      { type: 'submission.status_changed', data: { ...same, status: 'not_started', previous_status: null } },
      { type: 'submission.status_changed', data: { ...same, status: 'pending', previous_status: 'not_started' } },
      { type: 'submission.status_changed', data: { ...same, status: 'canceled', previous_status: 'pending' } },
    ]);

    // One review task, the submission made without starting it: completing the task starts and completes it.
    const review = await makeOrigination(h, realm.uid, { name: 'Check', deadline_days: null, steps: [{ name: 'Review', tasks: [{ name: 'Check', type: 'pending_review' }] }] });
    const waiting = await startFor(h, realm.uid, review.id, user.id, { start: false });
    const task = review.steps[0].tasks[0];
    const done = await admin(h, 'POST', `/customers/${realm.uid}/submissions/${waiting.id}/tasks/${task.uid}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    const again = { id: waiting.id, uuid: waiting.uuid, origination_uuid: review.uuid, user_id: user.id, realm_uid: realm.uid };
    expect((await delivered()).map((p) => p.data)).toEqual([
      { ...again, status: 'not_started', previous_status: null },
      { ...again, status: 'pending', previous_status: 'not_started' },
      { ...again, status: 'completed', previous_status: 'pending' },
    ]);
  });

  it('delivery.completed when a campaign delivery completes, with its counts', async () => {
    await subscribe(['delivery.completed']);
    const realmOfOne = await makeRealm(h);
    await makeRealmUser(h, realmOfOne.uid);
    const campaign = await makeCampaign(h, realmOfOne.uid, { type: 'notification', subject: 'News', body: 'Hello' });
    const asked = await deliver(h, campaign.id);
    await drainSending(h.ctx);
    const shown = await showDelivery(h, campaign.id, asked.id);
    expect(shown.status).toBe('completed');
    const [completed] = await delivered();
    expect(completed.type).toBe('delivery.completed');
    expect(completed.data).toEqual({ ...shown, campaign_uuid: campaign.uuid, type: 'notification', realm_uid: realmOfOne.uid });
    expect(completed.data.sent_count).toBe(1);
  });

  it('entry.published and entry.unpublished, from the admin API and from the schedule', async () => {
    await subscribe(['entry.published', 'entry.unpublished']);
    const space = await makeSpace(h, { default_locale: 'en', locales: ['en', 'es'] });
    const type = await makeType(h, space.uid, { fields: [{ name: 'title', type: 'text', localized: true }] });
    const entries = entryClient(h, space.uid, type.uid);
    const entry = await entries.created({ name: 'Launch', fields: { title: 'Hello' } });
    const uuid = entry.meta.uuid as string;
    expect((await entries.put(uuid, { locale: 'es', fields: { title: 'Hola' } })).statusCode).toBe(200);
    expect((await entries.post(uuid, 'publish')).statusCode).toBe(200);
    expect((await entries.post(uuid, 'unpublish', { locale: 'es' })).statusCode).toBe(200);
    const same = { space_uid: space.uid, type_uid: type.uid, uuid };
    const got = await delivered();
    expect(got).toEqual([
      { type: 'entry.published', timestamp: expect.any(String), data: { ...same, locales: expect.arrayContaining(['en', 'es']) } },
      { type: 'entry.unpublished', timestamp: expect.any(String), data: { ...same, locales: ['es'] } },
    ]);
    expect(got[0].data.locales).toHaveLength(2);

    const scheduled = await entries.schedule(uuid, { unpublish_at: new Date(h.clock.now().getTime() + 60_000).toISOString() });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    h.clock.advanceMinutes(2);
    await runDueJobs(h.ctx, [contentScheduleJob]);
    expect(await delivered()).toEqual([{ type: 'entry.unpublished', timestamp: expect.any(String), data: { ...same, locales: ['en'] } }]);
  });

  it('a change that fails leaves nothing in the outbox: a 422, a refused delete, a rolled back transaction', async () => {
    await subscribe(['realm_user.created', 'realm_user.updated', 'realm_user.deleted', 'user_updated_log']);
    const user = await makeRealmUser(h, realm.uid);
    expect((await delivered()).map((p) => p.type)).toEqual(['realm_user.created']);
    const before = await outboxSize();

    const invalid = await h.request({ method: 'PUT', url: userUrl(realm.uid, user.id), payload: { first_name: 'Ada', email: 'not an email' } });
    expect(invalid.statusCode).toBe(422);
    const taken = await h.request({ method: 'POST', url: userUrl(realm.uid), payload: { email: user.email } });
    expect(taken.statusCode).toBe(422);
    expect((await h.request({ method: 'DELETE', url: userUrl(other.uid, user.id) })).statusCode).toBe(404);
    const [row] = await h.ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.uid, realm.uid));
    await expect(h.ctx.db.transaction(async (tx) => {
      await recordEvent({ ...h.ctx, db: tx as unknown as Db }, { realmId: row.id, userId: user.id, type: 'user_updated_log' });
      throw new Error('the rest of the change failed');
    })).rejects.toThrow('the rest of the change failed');

    expect(await outboxSize()).toBe(before);
    expect(await delivered()).toEqual([]);
  });
});
