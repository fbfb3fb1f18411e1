import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainSending } from '../../src/messaging/worker.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { htmlPart, type SmtpListener } from '../helpers/smtp.js';
import { asPreview, deliver, makeCampaign } from './fixtures.js';

const CAMPAIGNS = '/api/admin/messaging/campaigns';

const layoutIn = (greeting: string) => ({
  subject: '',
  html: `<!doctype html>\n<html>\n<head><style>.brand { color: #0b57d0; }</style></head>\n<body>\n<h1 class="brand">${greeting} · {{ realm.name }}</h1>\n{{ content | raw }}\n<p>— {{ realm.name }}</p>\n</body>\n</html>\n`,
  text: '',
});

// What only a sent message carries: the unsubscribe footer and the tracking pixel, with the recipient's tokens.
const FOOTER_AND_PIXEL = /\n<p style="font-size:12px;color:#666">To stop receiving these messages, <a href="[^"]+">unsubscribe<\/a>\.<\/p>\n<img src="[^"]+" width="1" height="1" alt="" style="display:block;border:0">/;

describe('a mailing inside the realm\'s campaign layout', () => {
  let h: Harness;
  let smtp: SmtpListener;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
  });
  afterAll(async () => { await h?.close(); });

  const saveLayout = (realmUid: string, locales: Record<string, unknown>) => h.request({
    method: 'PUT', url: `/api/admin/customers/${realmUid}/email_templates/campaign_layout`, payload: { locales },
  });

  it('wraps each recipient\'s message in the layout of their language, and the preview is the HTML part received but for the tokens', async () => {
    const realm = await makeRealm(h, { name: 'Banca Personal' });
    expect((await saveLayout(realm.uid, { en: layoutIn('News'), es: layoutIn('Noticias') })).statusCode).toBe(200);
    const ada = await makeRealmUser(h, realm.uid, { first_name: 'Ada' });
    const lucia = await makeRealmUser(h, realm.uid, { first_name: 'Lucía', locale: 'es' });
    const campaign = await makeCampaign(h, realm.uid, { use_layout: true });
    expect(campaign.use_layout).toBe(true);
    await deliver(h, campaign.id);
    await drainSending(h.ctx);

    const english = htmlPart(await smtp.next(ada.email));
    const spanish = htmlPart(await smtp.next(lucia.email));
    // The layout's CSS is inlined into its own markup; the campaign's body and the footer sit inside its <body>.
    expect(english).toMatch(/^<!doctype html>/i);
    expect(english).toContain('<h1 class="brand" style="color: #0b57d0;">News · Banca Personal</h1>\n<p>Hi Ada!</p>\n<p style="font-size:12px;color:#666">');
    expect(english).toMatch(/<p>— Banca Personal<\/p>\n<\/body>\n<\/html>\s*$/);
    expect(spanish).toContain('<h1 class="brand" style="color: #0b57d0;">Noticias · Banca Personal</h1>\n<p>Hi Lucía!</p>');

    const preview = await h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/preview`, payload: { user_id: lucia.id } });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().body).toBe(spanish.replace(FOOTER_AND_PIXEL, ''));
    expect(preview.json().html).toBe(asPreview(spanish));
    // An unsaved campaign's preview wraps the same way.
    const draft = await h.request({
      method: 'POST', url: `${CAMPAIGNS}/preview`,
      payload: { realm_uid: realm.uid, type: 'mailing', subject: 'Hello', body: '<p>Hi {{ user.first_name }}!</p>', use_layout: true, user_id: ada.id },
    });
    expect(draft.json().body).toBe(english.replace(FOOTER_AND_PIXEL, ''));
    expect(draft.json().html).toBe(asPreview(english));
  });

  it('keeps the layout a delivery was asked with, and leaves a campaign without use_layout as it is', async () => {
    const realm = await makeRealm(h);
    expect((await saveLayout(realm.uid, { en: layoutIn('First'), es: layoutIn('Primera') })).statusCode).toBe(200);
    const user = await makeRealmUser(h, realm.uid, { first_name: 'Grace' });
    const laidOut = await makeCampaign(h, realm.uid, { use_layout: true });
    const plain = await makeCampaign(h, realm.uid);
    expect(plain.use_layout).toBe(false);
    await deliver(h, laidOut.id);
    // Changed after the delivery was asked for, before it is sent.
    expect((await saveLayout(realm.uid, { en: layoutIn('Second'), es: layoutIn('Segunda') })).statusCode).toBe(200);
    await drainSending(h.ctx);
    expect(htmlPart(await smtp.next(user.email))).toContain('>First · ');

    await deliver(h, plain.id);
    await drainSending(h.ctx);
    const html = htmlPart(await smtp.next(user.email));
    expect(html).toMatch(/^<p>Hi Grace!<\/p>\n<p style="font-size:12px/);
    expect(html).not.toContain('<html');
    const preview = await h.request({ method: 'POST', url: `${CAMPAIGNS}/${plain.id}/preview`, payload: { user_id: user.id } });
    expect(preview.json().html).toBe(asPreview(html));
  });

  it('refuses use_layout for a notification, and a layout that does not write the content once', async () => {
    const realm = await makeRealm(h);
    const notification = await h.request({
      method: 'POST', url: CAMPAIGNS,
      payload: { realm_uid: realm.uid, name: 'Inbox', type: 'notification', subject: 'Hi', body: 'Hello', use_layout: true },
    });
    expect(notification.statusCode).toBe(422);
    expect(notification.json().errors).toEqual(['Use layout is only for mailings']);

    const noContent = { subject: '', html: '<p>{{ realm.name }}</p>', text: '' };
    expect((await saveLayout(realm.uid, { en: noContent, es: noContent })).statusCode).toBe(200);
    const refused = await h.request({
      method: 'POST', url: CAMPAIGNS,
      payload: { realm_uid: realm.uid, name: 'News', type: 'mailing', subject: 'Hi', body: '<p>Hello</p>', use_layout: true },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0]).toContain('campaign_layout email template (en) cannot be used: it must write {{ content }} once');
    // Saved without the layout, then switched on: refused the same way, and nothing changed.
    const campaign = await makeCampaign(h, realm.uid);
    const switched = await h.request({ method: 'PUT', url: `${CAMPAIGNS}/${campaign.id}`, payload: { use_layout: true } });
    expect(switched.statusCode).toBe(422);
    expect((await h.request({ method: 'GET', url: `${CAMPAIGNS}/${campaign.id}` })).json().use_layout).toBe(false);
  });
});
