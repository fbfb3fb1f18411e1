import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { impersonatedSession, makeRealm } from '../helpers/realms.js';
import { asCustomer, NOT_FOUND, openedEvents, send, signedInUser, USER_SESSION, userWithToken, type SignedIn } from './fixtures.js';

describe('customers API: the notifications inbox', () => {
  let h: Harness;
  let realm: { uid: string };

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
  });
  afterAll(async () => { await h?.close(); });

  const inbox = (who: SignedIn, query = '') => asCustomer(h, who, 'GET', realm.uid, `/notifications${query}`);
  const open = (who: SignedIn, id: number | string) => asCustomer(h, who, 'POST', realm.uid, `/notifications/${id}/open`);
  const openAll = (who: SignedIn) => asCustomer(h, who, 'POST', realm.uid, '/notifications/open_all');

  /** Sends notifications one minute apart; answers their ids in sending order. */
  async function sendSeveral(userId: number, n: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      h.clock.advanceMinutes(1);
      ids.push((await send(h, realm.uid, userId, { subject: `Message ${i}` })).id);
    }
    return ids;
  }

  it('lists unread first, then newest first, with the user\'s unread count', async () => {
    const user = await signedInUser(h, realm.uid);
    const [first, second, third, fourth] = await sendSeveral(user.id, 4);
    expect((await open(user, third)).statusCode).toBe(200);
    expect((await open(user, first)).statusCode).toBe(200);
    const res = await inbox(user);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.notifications.map((n: { id: number }) => n.id)).toEqual([fourth, second, third, first]);
    expect(body.notifications.map((n: { opened: boolean }) => n.opened)).toEqual([false, false, true, true]);
    expect(body.unread_count).toBe(2);
    expect(body.meta).toEqual({ total_entries: 4, per_page: 10, current_page: 1, total_pages: 1 });
    expect(Object.keys(body.notifications[0]).sort()).toEqual(['body', 'id', 'opened', 'sent_at', 'subject', 'url']);
  });

  it('orders notifications sent at the same moment newest first by id (a campaign sends many at once)', async () => {
    const user = await signedInUser(h, realm.uid);
    h.clock.advanceMinutes(1);
    const a = await send(h, realm.uid, user.id);
    const b = await send(h, realm.uid, user.id);
    expect(a.sent_at).toBe(b.sent_at);
    expect((await inbox(user)).json().notifications.map((n: { id: number }) => n.id)).toEqual([b.id, a.id]);
  });

  it('paginates as every list does, per_page cut to 100, and counts unread across every page', async () => {
    const user = await signedInUser(h, realm.uid);
    const ids = await sendSeveral(user.id, 12);
    await open(user, ids[11]);
    const page3 = (await inbox(user, '?page=3&per_page=5')).json();
    expect(page3.meta).toEqual({ total_entries: 12, per_page: 5, current_page: 3, total_pages: 3 });
    // The eleven unread newest first (ids[10] ... ids[0]), then the opened ids[11]: page 3 holds the last two.
    expect(page3.notifications.map((n: { id: number }) => n.id)).toEqual([ids[0], ids[11]]);
    expect(page3.unread_count).toBe(11);
    const past = (await inbox(user, '?page=9&per_page=5')).json();
    expect(past).toEqual({ notifications: [], meta: { total_entries: 12, per_page: 5, current_page: 9, total_pages: 3 }, unread_count: 11 });
    const garbage = (await inbox(user, '?page=x&per_page=-3')).json();
    expect(garbage.meta).toEqual({ total_entries: 12, per_page: 10, current_page: 1, total_pages: 2 });
  });

  it('cuts per_page to 100', async () => {
    const user = await signedInUser(h, realm.uid);
    const sent = await Promise.all(Array.from({ length: 101 }, () => send(h, realm.uid, user.id)));
    expect(sent).toHaveLength(101);
    const body = (await inbox(user, '?per_page=1000')).json();
    expect(body.notifications).toHaveLength(100);
    expect(body.meta).toEqual({ total_entries: 101, per_page: 100, current_page: 1, total_pages: 2 });
    expect(body.unread_count).toBe(101);
  });

  it('answers an empty inbox for a user without notifications', async () => {
    const user = await signedInUser(h, realm.uid);
    expect((await inbox(user)).json()).toEqual({
      notifications: [], meta: { total_entries: 0, per_page: 10, current_page: 1, total_pages: 0 }, unread_count: 0,
    });
  });

  it('opens a notification once: 200 each time, one notification_opened_log event', async () => {
    const user = await signedInUser(h, realm.uid);
    const sent = await send(h, realm.uid, user.id, { body: 'Details', url: '/statements' });
    h.clock.advanceMinutes(5);
    const first = await open(user, sent.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ...sent, opened: true });
    const again = await open(user, sent.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...sent, opened: true });
    const events = await openedEvents(h, user.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ impersonatorId: null, properties: { notification_id: sent.id }, createdAt: h.clock.now() });
    expect((await inbox(user)).json().unread_count).toBe(0);
  });

  it('records the event exactly once under 20 concurrent opens', async () => {
    const user = await signedInUser(h, realm.uid);
    const sent = await send(h, realm.uid, user.id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => open(user, sent.id)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.every((r) => r.json().opened === true)).toBe(true);
    expect(await openedEvents(h, user.id)).toHaveLength(1);
  });

  it('answers 404 {} for another user\'s notification and leaves it unread', async () => {
    const owner = await signedInUser(h, realm.uid);
    const intruder = await signedInUser(h, realm.uid);
    const sent = await send(h, realm.uid, owner.id);
    const res = await open(intruder, sent.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
    expect((await inbox(owner)).json().notifications[0]).toMatchObject({ id: sent.id, opened: false });
    expect((await inbox(intruder)).json().notifications).toEqual([]);
    expect(await openedEvents(h, intruder.id)).toHaveLength(0);
    expect(await openedEvents(h, owner.id)).toHaveLength(0);
  });

  it('answers 404 {} for an unknown id, also past 2^31, and 422 for one that is not a positive integer', async () => {
    const user = await signedInUser(h, realm.uid);
    for (const id of [999_999, 2 ** 31 - 1, 2 ** 31, 2 ** 40, '99999999999999999999999']) {
      const res = await open(user, id);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    for (const id of ['abc', '0', '-1', '1.5']) expect((await open(user, id)).statusCode, id).toBe(422);
  });

  it('marks every unread notification read with open_all, recording no event', async () => {
    const user = await signedInUser(h, realm.uid);
    const other = await signedInUser(h, realm.uid);
    const [first] = await sendSeveral(user.id, 3);
    await sendSeveral(other.id, 2);
    await open(user, first);
    const res = await openAll(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ opened: 2 });
    expect((await openAll(user)).json()).toEqual({ opened: 0 });
    const body = (await inbox(user)).json();
    expect(body.unread_count).toBe(0);
    expect(body.notifications.every((n: { opened: boolean }) => n.opened)).toBe(true);
    // Only the one opened by itself left an event; another user's inbox is untouched.
    expect(await openedEvents(h, user.id)).toHaveLength(1);
    expect((await inbox(other)).json().unread_count).toBe(2);
  });

  it('serves the same inbox to an OAuth access token', async () => {
    const user = await userWithToken(h, realm.uid);
    const sent = await send(h, realm.uid, user.id);
    expect((await inbox(user)).json().notifications).toEqual([sent]);
    expect((await open(user, sent.id)).json()).toMatchObject({ opened: true });
    expect(await openedEvents(h, user.id)).toHaveLength(1);
  });

  it('flags the event of an opening made while an admin impersonates the user', async () => {
    const user = await signedInUser(h, realm.uid);
    const sent = await send(h, realm.uid, user.id);
    const impersonated = { id: user.id, headers: { cookie: await impersonatedSession(h, realm.uid, user.id) } };
    expect((await open(impersonated, sent.id)).statusCode).toBe(200);
    expect(await openedEvents(h, user.id)).toMatchObject([{ impersonatorId: h.ownerId }]);
  });

  it('answers for a credential of another realm as the customers API does: 401 user_session; 404 {} for an unknown realm', async () => {
    const other = await makeRealm(h);
    const stranger = await userWithToken(h, other.uid);
    const mine = await signedInUser(h, realm.uid);
    const sent = await send(h, realm.uid, mine.id);
    for (const res of [await inbox(stranger), await open(stranger, sent.id), await openAll(stranger)]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(USER_SESSION);
    }
    for (const res of [await inbox({ id: 0, headers: {} }), await open({ id: 0, headers: {} }, sent.id)]) {
      expect(res.json()).toEqual(USER_SESSION);
    }
    const unknown = await asCustomer(h, mine, 'GET', 'no-such-realm', '/notifications');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(NOT_FOUND);
    expect((await inbox(mine)).json().notifications[0]).toMatchObject({ id: sent.id, opened: false });
  });

  it('documents the inbox in the customers catalog', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/customers/docs/openapi.json', token: null })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/realms/{realm_uid}/notifications', '/realms/{realm_uid}/notifications/{id}/open', '/realms/{realm_uid}/notifications/open_all',
    ]));
    expect(doc.components.schemas.Inbox.required).toEqual(['notifications', 'meta', 'unread_count']);
    expect(Object.keys(doc.paths['/realms/{realm_uid}/notifications/{id}/open'].post.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '422']));
  });
});
