import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { asCustomer, send, sendRequest, signedInUser } from './fixtures.js';

describe('admin API: sending a notification to a realm user', () => {
  let h: Harness;
  let realm: { uid: string };
  let user: { id: number };

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
    user = await makeRealmUser(h, realm.uid);
  });
  afterAll(async () => { await h?.close(); });

  it('answers 201 with the notification, unread and sent now, and it reaches the user\'s inbox', async () => {
    const reader = await signedInUser(h, realm.uid);
    const res = await sendRequest(h, realm.uid, reader.id, { subject: '  Statement ready  ', body: 'Your March statement.', url: 'https://bank.example/statements/3?x=1' });
    expect(res.statusCode, res.body).toBe(201);
    const sent = res.json();
    expect(sent).toEqual({
      id: expect.any(Number), subject: 'Statement ready', body: 'Your March statement.', url: 'https://bank.example/statements/3?x=1',
      opened: false, sent_at: h.clock.now().toISOString(),
    });
    const inbox = await asCustomer(h, reader, 'GET', realm.uid, '/notifications');
    expect(inbox.json().notifications).toEqual([sent]);
  });

  it('takes a path as url, leaves body empty and url null when not given', async () => {
    expect(await send(h, realm.uid, user.id, { url: '/offers/12#top' })).toMatchObject({ url: '/offers/12#top', body: '' });
    expect(await send(h, realm.uid, user.id)).toMatchObject({ url: null, body: '' });
    expect(await send(h, realm.uid, user.id, { url: '' })).toMatchObject({ url: null });
    expect(await send(h, realm.uid, user.id, { url: null })).toMatchObject({ url: null });
    expect(await send(h, realm.uid, user.id, { url: 'HTTP://Bank.example' })).toMatchObject({ url: 'HTTP://Bank.example' });
  });

  it('answers 422 naming each invalid attribute, and sends nothing', async () => {
    const reader = await signedInUser(h, realm.uid);
    const details = async (payload: unknown) => {
      const res = await sendRequest(h, realm.uid, reader.id, payload);
      expect(res.statusCode, res.body).toBe(422);
      return res.json().details;
    };
    expect(await details({})).toEqual([{ field: 'subject', messages: ["can't be blank"] }]);
    expect(await details({ subject: '   ' })).toEqual([{ field: 'subject', messages: ["can't be blank"] }]);
    expect(await details({ subject: 'x'.repeat(256), body: 'y'.repeat(10_001), url: `/${'z'.repeat(2048)}` })).toEqual([
      { field: 'subject', messages: ['is too long (maximum is 255 characters)'] },
      { field: 'body', messages: ['is too long (maximum is 10000 characters)'] },
      { field: 'url', messages: ['is too long (maximum is 2048 characters)'] },
    ]);
    for (const url of ['javascript:alert(1)', '//evil.example/x', 'ftp://bank.example', 'http://', 'https:bank.example', 'bank.example/x', 'offers']) {
      expect(await details({ subject: 'Hi', url }), url).toEqual([{ field: 'url', messages: ['must be an absolute http or https address, or a path starting with "/"'] }]);
    }
    for (const url of ['/a b', '/\\evil.example', 'https://bank.example/\tx']) {
      expect(await details({ subject: 'Hi', url }), url).toEqual([{ field: 'url', messages: ['may not contain blanks, control characters or backslashes'] }]);
    }
    expect(await details({ subject: 'Hi', sender: 'me' })).toEqual([{ field: 'sender', messages: ['is not a known attribute'] }]);
    expect(await details({ subject: { text: 'Hi' } })).toEqual([{ field: 'subject', messages: ['must be string'] }]);
    expect((await asCustomer(h, reader, 'GET', realm.uid, '/notifications')).json().meta.total_entries).toBe(0);
  });

  it('answers 404 for an unknown user, a user of another realm, or an unknown realm', async () => {
    const other = await makeRealm(h);
    const stranger = await makeRealmUser(h, other.uid);
    for (const [uid, id] of [[realm.uid, 999_999], [realm.uid, stranger.id], ['no-such-realm', user.id]] as const) {
      const res = await sendRequest(h, uid, id, { subject: 'Hi' });
      expect(res.statusCode, `${uid} ${id}`).toBe(404);
      expect(res.json().errors).toHaveLength(1);
    }
    // An id beyond the 32-bit column is refused by the schema, as everywhere in the admin API.
    expect((await sendRequest(h, realm.uid, 2 ** 31, { subject: 'Hi' })).statusCode).toBe(422);
  });

  it('needs realm.activity.write on that realm: 403 for a realm viewer\'s own token and for a member of another realm', async () => {
    const other = await makeRealm(h);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const elsewhere = await memberToken(h, [{ key: 'realm_user', target: other.uid }]);
    const here = await memberToken(h, [{ key: 'realm_user', target: realm.uid }]);
    for (const token of [viewer, elsewhere]) {
      const res = await sendRequest(h, realm.uid, user.id, { subject: 'Hi' }, token);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ errors: [expect.any(String)], code: 'ATR_FORBIDDEN' });
    }
    expect((await sendRequest(h, realm.uid, user.id, { subject: 'Hi' }, here)).statusCode).toBe(201);
    expect((await sendRequest(h, realm.uid, user.id, { subject: 'Hi' }, null)).statusCode).toBe(401);
  });

  it('documents the operation in the admin catalog with its Notification model', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null })).json();
    const operation = doc.paths['/customers/{realm_uid}/users/{id}/notifications'].post;
    expect(operation.tags).toEqual(['Notifications']);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '404', '422']));
    expect(doc.components.schemas.Notification.required).toEqual(['id', 'subject', 'body', 'url', 'opened', 'sent_at']);
  });
});

describe('admin API: reading a realm user\'s notifications', () => {
  let h: Harness;
  let realm: { uid: string };

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
  });
  afterAll(async () => { await h?.close(); });

  const list = (realmUid: string, userId: number | string, query = '', token?: string | null) =>
    h.request({ method: 'GET', url: `/api/admin/customers/${realmUid}/users/${userId}/notifications${query}`, token });

  it('answers the user\'s inbox as the user sees it: unread first, newest first, with the unread count, paginated', async () => {
    const reader = await signedInUser(h, realm.uid);
    const first = await send(h, realm.uid, reader.id, { subject: 'First' });
    h.clock.advanceMinutes(1);
    const second = await send(h, realm.uid, reader.id, { subject: 'Second' });
    h.clock.advanceMinutes(1);
    const third = await send(h, realm.uid, reader.id, { subject: 'Third' });
    expect((await asCustomer(h, reader, 'POST', realm.uid, `/notifications/${third.id}/open`)).statusCode).toBe(200);
    const res = await list(realm.uid, reader.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      notifications: [second, first, { ...third, opened: true }],
      meta: { total_entries: 3, per_page: 10, current_page: 1, total_pages: 1 },
      unread_count: 2,
    });
    expect(res.json()).toEqual((await asCustomer(h, reader, 'GET', realm.uid, '/notifications')).json());
    const paged = (await list(realm.uid, reader.id, '?per_page=1&page=3')).json();
    expect(paged).toMatchObject({ notifications: [{ id: third.id }], unread_count: 2, meta: { total_pages: 3 } });
  });

  it('answers 404 for a user of another realm or an unknown one, 422 past the 32-bit id, 403 without realm.activity.read there', async () => {
    const other = await makeRealm(h);
    const stranger = await makeRealmUser(h, other.uid);
    expect((await list(realm.uid, stranger.id)).statusCode).toBe(404);
    expect((await list(realm.uid, 999_999)).statusCode).toBe(404);
    expect((await list('no-such-realm', stranger.id)).statusCode).toBe(404);
    expect((await list(realm.uid, 2 ** 40)).statusCode).toBe(422);
    const user = await makeRealmUser(h, realm.uid);
    const elsewhere = await memberToken(h, [{ key: 'realm_viewer', target: other.uid }]);
    expect((await list(realm.uid, user.id, '', elsewhere)).statusCode).toBe(403);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    expect((await list(realm.uid, user.id, '', viewer)).statusCode).toBe(200);
    expect((await list(realm.uid, user.id, '', null)).statusCode).toBe(401);
  });
});
