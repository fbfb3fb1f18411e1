import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainWebhooks } from '../../src/webhooks/worker.js';
import { browser, h, REALMS, toCallback, useRig } from '../delegation/rig.js';
import { startReceiver, type Receiver } from './receiver.js';

describe('webhook sources: a delegated sign-in that creates a user', () => {
  useRig();
  let receiver: Receiver;

  beforeAll(async () => {
    // The rig's server runs with OUTBOUND_ALLOW_PRIVATE=1: the receiver is on loopback, like the provider.
    receiver = await startReceiver(h.clock);
  });
  afterAll(async () => { await receiver?.close(); });

  it('sends realm_user.created, user_signup_log and user_login_log, each with the realm and the user as the admin API shows them', async () => {
    const created = await h.request({
      method: 'POST', url: '/api/admin/webhooks',
      payload: { url: `${receiver.url}/hook`, event_types: ['realm_user.created', 'user_signup_log', 'user_login_log'], realm_uids: [REALMS.direct] },
    });
    expect(created.statusCode, created.body).toBe(201);
    receiver.secrets.push(created.json().secret);

    const b = browser();
    const { callback } = await toCallback(b, REALMS.direct, 'dave');
    expect((await b.atrium.fetch(callback)).status).toBe(303);
    await drainWebhooks(h.ctx);
    for (const request of receiver.received) expect(request.verifiedWith).toHaveLength(1);
    const payloads = receiver.received.map((r) => JSON.parse(r.body));
    const byType = Object.fromEntries(payloads.map((p) => [p.type, p.data]));
    expect(Object.keys(byType).sort()).toEqual(['realm_user.created', 'user_login_log', 'user_signup_log']);

    const user = (await h.request({ method: 'GET', url: `/api/admin/customers/${REALMS.direct}/users?query=dave%40example.com` })).json().users[0];
    expect(byType['realm_user.created']).toEqual({ ...user, realm_uid: REALMS.direct });
    const events = (await h.request({ method: 'GET', url: `/api/admin/customers/${REALMS.direct}/events?user_id=${user.id}` })).json().events;
    for (const type of ['user_signup_log', 'user_login_log']) {
      expect(byType[type]).toEqual({ ...events.find((e: { type: string }) => e.type === type), realm_uid: REALMS.direct, user_id: user.id });
    }
  });
});
