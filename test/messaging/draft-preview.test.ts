import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import type { ReceivedMail, SmtpListener } from '../helpers/smtp.js';
import { makeCampaign } from './fixtures.js';

const CAMPAIGNS = '/api/admin/messaging/campaigns';
const PREVIEW = `${CAMPAIGNS}/preview`;

const quotedPrintable = (text: string) =>
  Buffer.from(text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');

/** The decoded part of a mail with this content type (the whole mail when it has one part). */
function partOf(mail: ReceivedMail, type: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(mail.raw)?.[1];
  const parts = boundary ? mail.raw.split(`--${boundary}`) : [mail.raw];
  const part = parts.find((p) => new RegExp(`content-type: ${type}`, 'i').test(p));
  if (!part) throw new Error(`no ${type} part in:\n${mail.raw}`);
  const [head, ...rest] = part.split(/\r?\n\r?\n/);
  // Without the line end the mail writer closes each part with, and the one before the next boundary.
  const body = rest.join('\r\n\r\n').replace(/(\r\n){1,2}$/, '');
  return /content-transfer-encoding: quoted-printable/i.test(head) ? quotedPrintable(body) : body;
}

const subjectOf = (mail: ReceivedMail) => /^subject: (.*)$/im.exec(mail.raw.replace(/\r\n[ \t]+/g, ' '))?.[1]?.trim();

describe('preview of an unsaved campaign', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realm: { uid: string };

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realm = await makeRealm(h);
  });
  afterAll(async () => { await h?.close(); });

  const preview = (payload: Record<string, unknown>, token?: string) => h.request({ method: 'POST', url: PREVIEW, token, payload });

  it('renders what the test message of the same campaign, once saved, delivers to that user', async () => {
    const user = await makeRealmUser(h, realm.uid, { first_name: '<Ada>', last_name: 'Byron', email: 'ada.draft@example.com' });
    const draft = {
      type: 'mailing', subject: 'Hello {{ user.first_name }} {{ user.last_name }}',
      body: '<p>Hi {{ user.first_name }}!</p>\n{% if user.last_name == "Byron" %}<p>Welcome back, {{ user.name }}.</p>{% endif %}',
    };
    const res = await preview({ realm_uid: realm.uid, ...draft, user_id: user.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      subject: 'Hello <Ada> Byron',
      body: '<p>Hi &lt;Ada&gt;!</p>\n<p>Welcome back, &lt;Ada&gt; Byron.</p>',
    });
    const campaign = await makeCampaign(h, realm.uid, draft);
    const saved = await h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/preview`, payload: { user_id: user.id } });
    expect(saved.json()).toEqual(res.json());
    const test = await h.request({ method: 'POST', url: `${CAMPAIGNS}/${campaign.id}/test`, payload: { email: user.email } });
    expect(test.statusCode, test.body).toBe(200);
    const mail = await smtp.next(user.email);
    expect(subjectOf(mail)).toBe(`[Test] ${res.json().subject}`);
    // The test carries the parts the preview shows. SMTP carries lines ended by CRLF.
    expect(partOf(mail, 'text/html').replace(/\r\n/g, '\n')).toBe(res.json().html);
    expect(partOf(mail, 'text/plain').replace(/\r\n/g, '\n').trimEnd()).toBe(res.json().text.trimEnd());
  });

  it('renders a notification as plain text', async () => {
    const user = await makeRealmUser(h, realm.uid, { first_name: '<b>Bo</b>' });
    const res = await preview({ realm_uid: realm.uid, type: 'notification', subject: 'Hi', body: 'Dear {{ user.first_name }}', user_id: user.id });
    expect(res.json()).toEqual({ subject: 'Hi', body: 'Dear <b>Bo</b>', html: null, text: 'Dear <b>Bo</b>' });
  });

  it('answers a template that does not parse with 422 naming the field and the line', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const res = await preview({
      realm_uid: realm.uid, type: 'mailing', subject: 'Hi {{ user.first_name', body: '<p>one</p>\n<p>two</p>\n{% if user.first_name %}open', user_id: user.id,
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.errors.length).toBeGreaterThan(0);
    const fields = Object.fromEntries(body.details.map((d: { field: string; messages: string[] }) => [d.field, d.messages.join(' ')]));
    expect(fields.subject).toMatch(/line 1/);
    expect(fields.body).toMatch(/^is not a valid Liquid template: line 3: /);
  });

  it('answers 404 for a user of no realm or another realm, 422 for an unknown realm or type, 400 for a NUL', async () => {
    const other = await makeRealm(h);
    const stranger = await makeRealmUser(h, other.uid);
    const draft = { realm_uid: realm.uid, type: 'mailing', subject: 'S', body: 'B' };
    expect((await preview({ ...draft, user_id: stranger.id })).statusCode).toBe(404);
    expect((await preview({ ...draft, user_id: 2147483647 })).statusCode).toBe(404);
    const unknown = await preview({ ...draft, realm_uid: 'no-such-realm', user_id: stranger.id });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details).toEqual([{ field: 'realm_uid', messages: ['is not a realm'] }]);
    expect((await preview({ ...draft, body: 'B\u0000', user_id: stranger.id })).statusCode).toBe(400);
    expect((await preview({ ...draft, type: 'sms', user_id: stranger.id })).statusCode).toBe(422);
  });

  it('needs messaging.read on the realm, and tells nothing of realms the member does not reach', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const other = await makeRealm(h);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: other.uid }]);
    const draft = { type: 'mailing', subject: 'S', body: 'B', user_id: user.id };
    expect((await preview({ ...draft, realm_uid: realm.uid }, viewer)).statusCode).toBe(403);
    expect((await preview({ ...draft, realm_uid: 'no-such-realm' }, viewer)).statusCode).toBe(403);
    const allowed = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    expect((await preview({ ...draft, realm_uid: realm.uid }, allowed)).json()).toMatchObject({ subject: 'S', body: 'B' });
  });
});
