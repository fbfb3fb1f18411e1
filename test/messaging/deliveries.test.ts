import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { noMessageLeft } from '../../src/messaging/sender.js';
import { drainSending } from '../../src/messaging/worker.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { type SmtpListener } from '../helpers/smtp.js';
import { asCustomer, signedInUser } from '../notifications/fixtures.js';
import { deliver, linkIn, unfolded, makeCampaign, messagesOf, showDelivery } from './fixtures.js';

const CAMPAIGNS = '/api/admin/messaging/campaigns';

describe('deliveries', () => {
  let h: Harness;
  let smtp: SmtpListener;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
  });
  afterAll(async () => { await h?.close(); });

  const receivedBy = (addresses: string[]) => smtp.received.filter((m) => m.to.some((to) => addresses.includes(to)));

  // Asked on every round of the sender while a delivery is under way: it must not read the messages already sent.
  it('tells whether a delivery has messages left from the indexes of waiting and sending messages only', async () => {
    const plan = await h.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain select d.id from campaign_deliveries d where ${noMessageLeft(sql`d.id`)}`));
    });
    const text = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(text).toMatch(/message_deliveries_pending_idx/);
    expect(text).toMatch(/message_deliveries_leased_idx/);
    expect(text).not.toMatch(/message_deliveries_(recipient|campaign)_idx|message_deliveries_pkey/);
  });

  it('sends a mailing to exactly the active users of the realm, each one message with unsubscribe headers and a stable Message-ID', async () => {
    const realm = await makeRealm(h);
    const elsewhere = await makeRealm(h);
    const users = [
      await makeRealmUser(h, realm.uid, { first_name: 'Ada' }),
      await makeRealmUser(h, realm.uid, { first_name: 'Grace' }),
      await makeRealmUser(h, realm.uid, { first_name: 'Edsger' }),
    ];
    const inactive = await makeRealmUser(h, realm.uid, { active: false });
    const stranger = await makeRealmUser(h, elsewhere.uid);
    const campaign = await makeCampaign(h, realm.uid);
    const delivery = await deliver(h, campaign.id);
    expect(delivery).toMatchObject({ campaign_id: campaign.id, status: 'scheduled', reach: -1, sent_count: 0, segment_list: '--', ends_at: null });
    await drainSending(h.ctx);

    const addresses = [...users, inactive, stranger].map((u) => u.email.toLowerCase());
    const mails = receivedBy(addresses);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(users.map((u) => u.email.toLowerCase()).sort());
    const ada = { raw: unfolded(mails.find((m) => m.to[0] === users[0].email.toLowerCase())!.raw) };
    expect(ada.raw).toMatch(/^Subject: Hello Ada\r$/m);
    expect(ada.raw).toMatch(new RegExp(`^Message-ID: <${delivery.uuid}\\.${users[0].uuid}@atrium\\.test>\\r$`, 'm'));
    expect(ada.raw).toMatch(/^List-Unsubscribe: <http:\/\/atrium\.test\/messaging\/unsubscribe\/\d+\.[\w-]+>\r$/m);
    expect(ada.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);

    const done = await showDelivery(h, campaign.id, delivery.id);
    expect(done).toMatchObject({ status: 'completed', reach: 3, sent_count: 3, failed_count: 0, in_doubt_count: 0 });
    expect(done.ends_at).not.toBeNull();
    const shown = (await h.request({ method: 'GET', url: `${CAMPAIGNS}/${campaign.id}` })).json();
    expect(shown).toMatchObject({ sent_count: 3, last_sent: delivery.starts_at });
    const listed = await h.request({ method: 'GET', url: `${CAMPAIGNS}/${campaign.id}/deliveries` });
    expect(listed.json()).toMatchObject({ deliveries: [{ id: delivery.id, status: 'completed' }], meta: { total_entries: 1 } });
    const legacy = await h.request({ method: 'GET', url: `${CAMPAIGNS}/${campaign.id}/deliveries`, headers: { 'x-api-naming': 'legacy' } });
    expect(legacy.json()).toMatchObject({ deliveries: [{ target_list: '--' }], goal: { total_entries: 1 } });
    expect(legacy.json().deliveries[0].segment_list).toBeUndefined();

    const messages = await messagesOf(h, delivery.id);
    expect(messages).toHaveLength(3);
    const legacyMessages = await h.request({ method: 'GET', url: `/api/admin/messaging/message_deliveries?delivery_id=${delivery.id}`, headers: { 'x-api-naming': 'legacy' } });
    expect(legacyMessages.json()).toMatchObject({ goal: { total_entries: 3 }, message_deliveries: messages });
    expect(messages[0]).toMatchObject({
      type: 'admin.messaging.mail', status: 'sent', opened: false, delivery_id: delivery.id, campaign_name: 'Spring offer',
      delivery_start_date: delivery.starts_at, user_email: users[0].email, user_name: 'Ada Lovelace',
    });
  });

  it('the pixel marks a message opened and keeps the first opening; the unsubscribe link leaves the user out of the next delivery', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const campaign = await makeCampaign(h, realm.uid);
    const delivery = await deliver(h, campaign.id);
    await drainSending(h.ctx);
    const mail = await smtp.next(user.email);
    const pixel = linkIn(mail.raw, /http:\/\/atrium\.test\/messaging\/open\/[\w.-]+\.gif/).replace('http://atrium.test', '');
    const fetched = await h.request({ method: 'GET', url: pixel, token: null });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('image/gif');
    const [opened] = await messagesOf(h, delivery.id);
    expect(opened.opened).toBe(true);
    h.clock.advanceMinutes(10);
    await h.request({ method: 'GET', url: pixel, token: null });
    expect((await messagesOf(h, delivery.id))[0].opened_at).toBe(opened.opened_at);
    const forged = pixel.replace(/\.([\w-]{5})/, '.AAAAA');
    expect((await h.request({ method: 'GET', url: forged, token: null })).statusCode).toBe(200);

    const unsubscribe = linkIn(mail.raw, /http:\/\/atrium\.test\/messaging\/unsubscribe\/[\w.-]+/).replace('http://atrium.test', '');
    const page = await h.request({ method: 'GET', url: unsubscribe, token: null });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post">');
    expect((await h.request({ method: 'GET', url: forged.replace('/open/', '/unsubscribe/').replace('.gif', ''), token: null })).statusCode).toBe(404);
    const oneClick = await h.request({
      method: 'POST', url: unsubscribe, token: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    const second = await deliver(h, campaign.id);
    await drainSending(h.ctx);
    expect(await showDelivery(h, campaign.id, second.id)).toMatchObject({ status: 'completed', reach: 0, sent_count: 0 });
  });

  it('a notification campaign puts one notification in each user\'s inbox; opening it marks the message opened', async () => {
    const realm = await makeRealm(h);
    const reader = await signedInUser(h, realm.uid);
    const campaign = await makeCampaign(h, realm.uid, { type: 'notification', subject: 'News for {{ user.first_name }}', body: 'Hello <{{ user.last_name }}>' });
    const delivery = await deliver(h, campaign.id);
    await drainSending(h.ctx);
    const inbox = (await asCustomer(h, reader, 'GET', realm.uid, '/notifications')).json();
    expect(inbox.notifications).toMatchObject([{ subject: 'News for Ada', body: 'Hello <Lovelace>', opened: false }]);
    let [message] = await messagesOf(h, delivery.id);
    expect(message).toMatchObject({ type: 'admin.messaging.notification', status: 'sent', opened: false });
    expect((await asCustomer(h, reader, 'POST', realm.uid, `/notifications/${inbox.notifications[0].id}/open`)).statusCode).toBe(200);
    [message] = await messagesOf(h, delivery.id);
    expect(message.opened).toBe(true);
    expect(await showDelivery(h, campaign.id, delivery.id)).toMatchObject({ status: 'completed', reach: 1, sent_count: 1 });
  });

  it('a scheduled delivery waits for its time; a cancel and a start at the same moment have exactly one outcome', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const campaign = await makeCampaign(h, realm.uid);
    const startsAt = new Date(h.clock.now().getTime() + 3_600_000).toISOString();
    const later = await deliver(h, campaign.id, { starts_at: startsAt });
    await drainSending(h.ctx);
    expect(await showDelivery(h, campaign.id, later.id)).toMatchObject({ status: 'scheduled', reach: -1 });
    h.clock.advanceMinutes(60);
    const cancel = () => h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/deliveries/${later.id}/cancel` });
    const [round, ...answers] = await Promise.all([drainSending(h.ctx), ...Array.from({ length: 10 }, cancel)]);
    expect(round).toBeUndefined();
    await drainSending(h.ctx);
    const final = await showDelivery(h, campaign.id, later.id);
    const canceled = answers.filter((a) => a.statusCode === 200);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
    if (final.status === 'canceled') {
      expect(canceled).toHaveLength(1);
      expect(final.sent_count).toBe(0);
      expect(receivedBy([user.email.toLowerCase()])).toHaveLength(0);
    } else {
      expect(canceled).toHaveLength(0);
      expect(final).toMatchObject({ status: 'completed', sent_count: 1 });
      expect(receivedBy([user.email.toLowerCase()])).toHaveLength(1);
    }
  });

  it('keeps a delivery\'s rate across workers', async () => {
    const realm = await makeRealm(h);
    for (let i = 0; i < 5; i++) await makeRealmUser(h, realm.uid);
    const campaign = await makeCampaign(h, realm.uid);
    const delivery = await deliver(h, campaign.id, { rate_per_second: 2 });
    await Promise.all([drainSending(h.ctx, 'one'), drainSending(h.ctx, 'two')]);
    expect((await showDelivery(h, campaign.id, delivery.id)).sent_count).toBe(2);
    h.clock.advance(1_000);
    await Promise.all([drainSending(h.ctx, 'one'), drainSending(h.ctx, 'two')]);
    expect((await showDelivery(h, campaign.id, delivery.id)).sent_count).toBe(4);
    h.clock.advance(1_000);
    await drainSending(h.ctx);
    expect(await showDelivery(h, campaign.id, delivery.id)).toMatchObject({ status: 'completed', sent_count: 5 });
  });

  it('refuses a rate out of range and an id past 2^31; a started delivery cannot be canceled (409)', async () => {
    const realm = await makeRealm(h);
    const campaign = await makeCampaign(h, realm.uid);
    const bad = await h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/deliveries`, payload: { rate_per_second: 0 } });
    expect(bad.statusCode).toBe(422);
    expect((await h.request({ method: 'POST', url: `${CAMPAIGNS}/${2 ** 40}/deliveries`, payload: {} })).statusCode).toBe(422);
    const delivery = await deliver(h, campaign.id);
    await drainSending(h.ctx);
    const late = await h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/deliveries/${delivery.id}/cancel` });
    expect(late.statusCode).toBe(409);
  });
});

describe('deliveries to segments', () => {
  let h: Harness;
  let smtp: SmtpListener;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
  });
  afterAll(async () => { await h?.close(); });

  /** A saved segment, made through the segments API. */
  async function makeSegment(realmUid: string, name: string, filters: unknown): Promise<{ id: number; name: string }> {
    const res = await h.request({ method: 'POST', url: '/api/admin/segments', payload: { name, realm_uid: realmUid, filters } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  it('sends to the users any of the campaign\'s segments selects; segment_list names them', async () => {
    const realm = await makeRealm(h);
    const ada = await makeRealmUser(h, realm.uid, { first_name: 'Ada' });
    const grace = await makeRealmUser(h, realm.uid, { first_name: 'Grace' });
    await makeRealmUser(h, realm.uid, { first_name: 'Edsger' });
    const adas = await makeSegment(realm.uid, 'Adas', { attribute: 'first_name', operator: 'eq', value: 'Ada' });
    const graces = await makeSegment(realm.uid, 'Graces', { attribute: 'first_name', operator: 'eq', value: 'Grace' });
    const campaign = await makeCampaign(h, realm.uid, { segments_enabled: true, segment_ids: [graces.id, adas.id] });
    expect(campaign).toMatchObject({ segments: [{ id: graces.id, name: 'Graces' }, { id: adas.id, name: 'Adas' }], segment_list: 'Graces, Adas' });
    const delivery = await deliver(h, campaign.id);
    expect(delivery.segment_list).toBe('Graces, Adas');
    await drainSending(h.ctx);
    expect(await showDelivery(h, campaign.id, delivery.id)).toMatchObject({ status: 'completed', reach: 2, sent_count: 2 });
    const to = smtp.received.map((m) => m.to[0]);
    expect(to.sort()).toEqual([ada.email.toLowerCase(), grace.email.toLowerCase()].sort());
  });

  it('refuses a segment of another realm (422) and leaves the campaign as it was', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const theirs = await makeSegment(other.uid, 'Theirs', { attribute: 'active', operator: 'is', value: true });
    const refused = await h.request({
      method: 'POST', url: CAMPAIGNS,
      payload: { realm_uid: realm.uid, name: 'X', type: 'mailing', subject: 'S', body: 'B', segments_enabled: true, segment_ids: [theirs.id] },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().details[0].field).toBe('segment_ids');
    const campaign = await makeCampaign(h, realm.uid);
    const update = await h.request({ method: 'PUT', url: `${CAMPAIGNS}/${campaign.id}`, payload: { name: 'Y', segments_enabled: true, segment_ids: [theirs.id] } });
    expect(update.statusCode).toBe(422);
    expect((await h.request({ method: 'GET', url: `${CAMPAIGNS}/${campaign.id}` })).json()).toMatchObject({ name: 'Spring offer', segments_enabled: false });
  });
});
