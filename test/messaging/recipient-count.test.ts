import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainSending } from '../../src/messaging/worker.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { deliver, linkIn, makeCampaign, showDelivery } from './fixtures.js';
import type { SmtpListener } from '../helpers/smtp.js';

describe('GET /messaging/campaigns/{id}/recipient_count', () => {
  let h: Harness;
  let smtp: SmtpListener;
  beforeAll(async () => { ({ h, smtp } = await startHarnessWithSmtp()); });
  afterAll(async () => { await h?.close(); });

  const countOf = (id: number, token?: string) =>
    h.request({ method: 'GET', url: `/api/admin/messaging/campaigns/${id}/recipient_count`, ...(token ? { token } : {}) });

  it('counts the active users of the realm who have not unsubscribed, as the next delivery\'s reach will be', async () => {
    const realm = await makeRealm(h);
    const ada = await makeRealmUser(h, realm.uid, { first_name: 'Ada' });
    await makeRealmUser(h, realm.uid, { first_name: 'Grace' });
    await makeRealmUser(h, realm.uid, { active: false });
    await makeRealmUser(h, (await makeRealm(h)).uid);
    const campaign = await makeCampaign(h, realm.uid);
    expect((await countOf(campaign.id)).json()).toEqual({ recipients: 2 });

    const first = await deliver(h, campaign.id);
    await drainSending(h.ctx);
    expect((await showDelivery(h, campaign.id, first.id)).reach).toBe(2);
    const mail = smtp.received.find((m) => m.to[0] === ada.email.toLowerCase())!;
    const unsubscribe = linkIn(mail.raw, /http:\/\/atrium\.test\/messaging\/unsubscribe\/[\w.-]+/).replace('http://atrium.test', '');
    expect((await h.request({ method: 'POST', url: unsubscribe, token: null })).statusCode).toBeLessThan(400);
    expect((await countOf(campaign.id)).json()).toEqual({ recipients: 1 });
    const second = await deliver(h, campaign.id);
    await drainSending(h.ctx);
    expect((await showDelivery(h, campaign.id, second.id)).reach).toBe(1);
  });

  it('counts the union of the campaign\'s segments', async () => {
    const realm = await makeRealm(h);
    for (const first_name of ['Ada', 'Ada', 'Grace', 'Edsger']) await makeRealmUser(h, realm.uid, { first_name });
    const segment = async (name: string, value: string) => (await h.request({
      method: 'POST', url: '/api/admin/segments', payload: { name, realm_uid: realm.uid, filters: { attribute: 'first_name', operator: 'eq', value } },
    })).json().id as number;
    const campaign = await makeCampaign(h, realm.uid, { segments_enabled: true, segment_ids: [await segment('Adas', 'Ada'), await segment('Graces', 'Grace')] });
    expect((await countOf(campaign.id)).json()).toEqual({ recipients: 3 });
  });

  it('answers 404 for an unknown campaign, 422 for an id past 32 bits, 403 to a member of another realm, 401 without a credential', async () => {
    const realm = await makeRealm(h);
    const campaign = await makeCampaign(h, realm.uid);
    expect((await countOf(2 ** 31 - 1)).statusCode).toBe(404);
    expect((await countOf(2 ** 40)).statusCode).toBe(422);
    expect((await countOf(campaign.id, await memberToken(h, [{ key: 'realm_viewer', target: (await makeRealm(h)).uid }]))).statusCode).toBe(403);
    expect((await countOf(campaign.id, await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]))).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: `/api/admin/messaging/campaigns/${campaign.id}/recipient_count`, token: null })).statusCode).toBe(401);
  });
});
