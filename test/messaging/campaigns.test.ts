import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { type SmtpListener } from '../helpers/smtp.js';
import { makeCampaign } from './fixtures.js';

const CAMPAIGNS = '/api/admin/messaging/campaigns';

describe('campaigns', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realm: { uid: string };

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realm = await makeRealm(h);
  });
  afterAll(async () => { await h?.close(); });

  it('creates, shows, changes and deletes a campaign; segment_list is "--" without segments', async () => {
    const created = await makeCampaign(h, realm.uid, { name: '  Welcome  ' });
    expect(created).toMatchObject({
      name: 'Welcome', realm_uid: realm.uid, type: 'mailing', sent_count: 0, last_sent: null,
      segments_enabled: false, segments: [], segment_list: '--',
    });
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const shown = await h.request({ method: 'GET', url: `${CAMPAIGNS}/${created.id}` });
    expect(shown.json()).toEqual(created);
    const changed = await h.request({ method: 'PUT', url: `${CAMPAIGNS}/${created.id}`, payload: { subject: 'Dear {{ user.last_name }}' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Welcome', subject: 'Dear {{ user.last_name }}' });
    expect((await h.request({ method: 'DELETE', url: `${CAMPAIGNS}/${created.id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: `${CAMPAIGNS}/${created.id}` })).statusCode).toBe(404);
  });

  it('refuses a template that does not parse, naming the line', async () => {
    const res = await h.request({
      method: 'POST', url: CAMPAIGNS,
      payload: { realm_uid: realm.uid, name: 'Broken', type: 'mailing', subject: 'Hi', body: '<p>one</p>\n<p>two</p>\n{% if user.first_name %}open' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'body', messages: [expect.stringMatching(/^is not a valid Liquid template: line 3: /)] }]);
  });

  it.each([
    ['a loop without end', '{% for i in (1..1000000000) %}{{ i }}{% endfor %}'],
    ['megabytes of output', '{% for i in (1..100000) %}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{% endfor %}'],
    ['a string doubled without end', '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}'],
    ['a capture doubled without end', '{% assign s = "x" %}{% for i in (1..60) %}{% capture s %}{{ s }}{{ s }}{% endcapture %}{% endfor %}{{ s }}'],
  ])('refuses %s on save (the trial rendering is ended, not the worker)', async (_what, body) => {
    const started = Date.now();
    const res = await h.request({ method: 'POST', url: CAMPAIGNS, payload: { realm_uid: realm.uid, name: 'Hostile', type: 'mailing', subject: 'Hi', body } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details[0]).toMatchObject({ field: 'body', messages: [expect.stringMatching(/^cannot be rendered: /)] });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads no file through include or render', async () => {
    const res = await h.request({ method: 'POST', url: CAMPAIGNS, payload: { realm_uid: realm.uid, name: 'Files', type: 'mailing', subject: 'Hi', body: "{% include 'package.json' %}" } });
    expect(res.statusCode).toBe(422);
  });

  it('refuses an unknown realm (422), other types (422), unknown attributes (422)', async () => {
    const base = { realm_uid: realm.uid, name: 'X', type: 'mailing', subject: 'Hi', body: 'B' };
    expect((await h.request({ method: 'POST', url: CAMPAIGNS, payload: { ...base, realm_uid: 'nope' } })).json().details[0].field).toBe('realm_uid');
    expect((await h.request({ method: 'POST', url: CAMPAIGNS, payload: { ...base, type: 'sms' } })).statusCode).toBe(422);
    expect((await h.request({ method: 'POST', url: CAMPAIGNS, payload: { ...base, extra: 1 } })).statusCode).toBe(422);
    expect((await h.request({ method: 'POST', url: CAMPAIGNS, payload: { ...base, segments_enabled: true } })).statusCode).toBe(422);
  });

  it('lists with type, filtered, only (both forms), pagination and the legacy naming', async () => {
    const other = await makeRealm(h);
    const mailing = await makeCampaign(h, other.uid, { name: 'List mailing' });
    const notification = await makeCampaign(h, other.uid, { name: 'List notification', type: 'notification', body: 'Hi {{ user.first_name }}' });
    const member = await memberToken(h, [{ key: 'realm_viewer', target: other.uid }]);
    const list = await h.request({ method: 'GET', url: `${CAMPAIGNS}?per_page=1`, token: member });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().meta).toEqual({ total_entries: 2, per_page: 1, current_page: 1, total_pages: 2 });
    expect(list.json().campaigns[0].id).toBe(notification.id);
    const typed = await h.request({ method: 'GET', url: `${CAMPAIGNS}?type=mailing`, token: member });
    expect(typed.json().campaigns.map((c: { id: number }) => c.id)).toEqual([mailing.id]);
    const filtered = await h.request({ method: 'GET', url: `${CAMPAIGNS}?filtered=true`, token: member });
    expect(filtered.json().campaigns).toEqual([]);
    for (const query of ['only[]=id&only[]=name', 'only=id,name', 'only=id&only=name']) {
      const trimmed = await h.request({ method: 'GET', url: `${CAMPAIGNS}?type=mailing&${query}`, token: member });
      expect(trimmed.json().campaigns, query).toEqual([{ id: mailing.id, name: 'List mailing' }]);
    }
    const legacy = await h.request({ method: 'GET', url: `${CAMPAIGNS}?type=mailing`, token: member, headers: { 'x-api-naming': 'legacy' } });
    expect(legacy.json().goal).toEqual({ total_entries: 1, per_page: 10, current_page: 1, total_pages: 1 });
    expect(legacy.json().meta).toBeUndefined();
    expect(legacy.json().campaigns[0]).toMatchObject({ targets_enabled: false, targets: [], target_list: '--' });
    expect(legacy.json().campaigns[0].segment_list).toBeUndefined();
  });

  it('keeps a realm role to its realm: another realm\'s campaign is 403, a viewer cannot write', async () => {
    const mine = await makeRealm(h);
    const theirs = await makeCampaign(h, realm.uid, { name: 'Theirs' });
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: mine.uid }]);
    const admin = await memberToken(h, [{ key: 'realm_admin', target: mine.uid }]);
    expect((await h.request({ method: 'GET', url: `${CAMPAIGNS}/${theirs.id}`, token: admin })).statusCode).toBe(403);
    expect((await h.request({ method: 'DELETE', url: `${CAMPAIGNS}/${theirs.id}`, token: admin })).statusCode).toBe(403);
    expect((await h.request({ method: 'POST', url: CAMPAIGNS, token: viewer, payload: { realm_uid: mine.uid, name: 'X', type: 'mailing', subject: 'S', body: 'B' } })).statusCode).toBe(403);
    expect((await h.request({ method: 'POST', url: CAMPAIGNS, token: admin, payload: { realm_uid: realm.uid, name: 'X', type: 'mailing', subject: 'S', body: 'B' } })).statusCode).toBe(403);
    await makeCampaign(h, mine.uid, {}, admin);
  });

  it('previews for one user and sends one test message, counted nowhere', async () => {
    const user = await makeRealmUser(h, realm.uid, { first_name: '<Ada>' });
    const campaign = await makeCampaign(h, realm.uid);
    const preview = await h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/preview`, payload: { user_id: user.id } });
    expect(preview.json()).toMatchObject({ subject: 'Hello <Ada>', body: '<p>Hi &lt;Ada&gt;!</p>' });
    // The parts as sent, the footer and pixel with `preview` for the recipient's token.
    expect(preview.json().html).toMatch(/^<p>Hi &lt;Ada&gt;!<\/p>\n<p style="font-size:12px;color:#666">To stop receiving these messages, <a href="[^"]+\/messaging\/unsubscribe\/preview">unsubscribe<\/a>\.<\/p>\n<img src="[^"]+\/messaging\/open\/preview\.gif"/);
    expect(preview.json().text).toMatch(/^Hi <Ada>!\n\nTo stop receiving these messages, unsubscribe: \S+\/messaging\/unsubscribe\/preview\n$/);
    expect((await h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/preview`, payload: { user_id: 2147483647 } })).statusCode).toBe(404);
    const test = await h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/test`, payload: { email: 'tester@example.com' } });
    expect(test.statusCode, test.body).toBe(200);
    const mail = await smtp.next('tester@example.com');
    expect(mail.raw).toMatch(/^Subject: \[Test\] Hello Ada\r$/m);
    expect((await h.request({ method: 'GET', url: `${CAMPAIGNS}/${campaign.id}` })).json().sent_count).toBe(0);
  });
});
