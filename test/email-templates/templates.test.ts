import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, refusal, statusOf } from '../helpers/client.js';
import { inputValue } from '../helpers/cookie-jar.js';
import { OWNER_EMAIL, startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { htmlPart, mailText, type SmtpListener } from '../helpers/smtp.js';

const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

const RESET_ES = {
  subject: 'Nueva contraseña para {{ realm.name }}',
  html: '<style>p { color: #0b57d0; }</style>\n<p>Hola {{ user.first_name }}, <a href="{{ url }}">elige tu contraseña</a> ({{ valid_for }}).</p>',
  text: 'Hola {{ user.first_name }}: {{ url }} ({{ valid_for }})',
};
const PLAIN = { subject: 'Reset', html: '<p>{{ url }}</p>', text: '{{ url }}' };

describe('email templates', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realm: { uid: string; name: string };
  const admin = (token?: string | null) => adminClient(h, token);
  const kind = <K extends string>(k: K) => ({ params: { path: { kind: k } } });
  const inRealm = <K extends string>(realmUid: string, k: K) => ({ params: { path: { realm_uid: realmUid, kind: k } } });

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realm = await makeRealm(h, { name: 'Banca Personal' });
  });
  afterAll(async () => { await h?.close(); });

  async function askReset(identifier: string) {
    const path = `/realms/${realm.uid}/password`;
    const page = await h.request({ method: 'GET', url: path, token: null, headers: { 'accept-language': 'en' } });
    expect(page.statusCode, page.body).toBe(200);
    const res = await h.request({
      method: 'POST', url: path, token: null,
      headers: { cookie: cookiesOf(page), 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      payload: new URLSearchParams({ identifier, csrf_token: inputValue(page.body, 'csrf_token') ?? '' }).toString(),
    });
    expect(res.statusCode, res.body).toBeLessThan(400);
  }

  it('lists every kind with its variables, and answers the shipped wording while nothing is saved', async () => {
    const kinds = await admin().GET('/email_templates');
    expect(kinds.response.status).toBe(200);
    const byKind: Record<string, string[]> = Object.fromEntries(kinds.data!.kinds.map((k) => [k.kind, k.variables.map((v) => v.name)]));
    expect(Object.keys(byKind)).toHaveLength(10);
    expect(byKind.form_notification).toEqual(['form', 'response', 'realm']);
    expect(byKind.campaign_layout).toContain('content');
    expect(byKind.password_reset).toEqual(['realm', 'user', 'url', 'valid_for']);

    const shipped = await admin().GET('/customers/{realm_uid}/email_templates/{kind}', inRealm(realm.uid, 'password_reset'));
    expect(shipped.response.status).toBe(200);
    expect(shipped.data).toMatchObject({ kind: 'password_reset', realm_uid: realm.uid, source: 'shipped', format: 'html', updated_at: null });
    expect(shipped.data!.locales.es.subject).toBe('Restaurar contraseña de {{ realm.name }}');

    // Raw: the published catalog document, not an operation of it.
    const openapi = (await h.request({ url: '/api/admin/docs/openapi.json', token: null })).json();
    expect(openapi.paths['/email_templates/{kind}'].put.description).toContain('`form_notification`: `form`, `response`, `realm`');
    expect(openapi.paths['/customers/{realm_uid}/email_templates/{kind}/preview']).toBeDefined();
  });

  it('refuses a broken template at save with the field, line and column: a parse error, an unknown variable, an unknown locale', async () => {
    const save = (locales: Record<string, typeof PLAIN>) => refusal(admin().PUT('/email_templates/{kind}', { ...kind('password_reset'), body: { locales } }));
    const unclosed = await save({ en: { ...PLAIN, html: '<p>\n  {% if url %}open</p>' }, es: PLAIN });
    expect(unclosed.status).toBe(422);
    const [parse] = unclosed.body.details!;
    expect(parse.field).toBe('locales.en.html');
    expect(parse.messages[0]).toMatch(/^is not valid Liquid: line 2, column 3: tag \{% if url %\} not closed/);

    const unknown = await save({ en: PLAIN, es: { ...PLAIN, text: 'Hola\n{{ url }} {{ secret_token }}' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.details).toEqual([{ field: 'locales.es.text', messages: [expect.stringMatching(/^uses an unknown variable: line 2, column 14: secret_token /)] }]);

    const inTag = await save({ en: PLAIN, es: { ...PLAIN, subject: '{% if password %}x{% endif %}' } });
    expect(inTag.body.details![0]).toMatchObject({ field: 'locales.es.subject', messages: [expect.stringContaining('line 1, column 7: password')] });

    const locale = await save({ en: PLAIN, es: PLAIN, fr: PLAIN });
    expect(locale.status).toBe(422);
    expect(locale.body.details).toEqual([{ field: 'locales.fr', messages: ['is not a supported locale (en, es)'] }]);
    const missing = await save({ en: PLAIN });
    expect(missing.body.details).toEqual([{ field: 'locales.es', messages: ["can't be blank"] }]);
    const long = await save({ en: { ...PLAIN, subject: 'x'.repeat(301) }, es: PLAIN });
    expect(long.status).toBe(422);
    // Nothing was saved.
    expect((await admin().GET('/email_templates/{kind}', kind('password_reset'))).data!.source).toBe('shipped');
  });

  it('a realm override of the reset mail in Spanish reaches a Spanish user, and its preview is the HTML part received', async () => {
    const saved = await admin().PUT('/customers/{realm_uid}/email_templates/{kind}', { ...inRealm(realm.uid, 'password_reset'), body: { locales: { en: PLAIN, es: RESET_ES } } });
    expect(saved.response.status).toBe(200);
    expect(saved.data).toMatchObject({ source: 'realm', realm_uid: realm.uid, locales: { es: RESET_ES } });

    const user = await makeRealmUser(h, realm.uid, { first_name: 'Lucía', locale: 'es' });
    expect(user.locale).toBe('es');
    // The page is read in English: the mail follows the user's language.
    await askReset(user.email);
    const mail = await smtp.next(user.email);
    expect(mail.raw).toContain('Subject: Nueva =?UTF-8?Q?contrase=C3=B1a?= para Banca Personal');
    expect(mailText(mail)).toMatch(/Hola Luc=C3=ADa: http:\/\/atrium\.test\/realms\/[^/]+\/password\/reset\/\S+ \(30 minutos\)/);
    const html = htmlPart(mail);
    // juice inlined the style for the clients that drop <style>.
    expect(html).toContain('<p style="color: #0b57d0;">Hola Lucía, <a href="http://atrium.test/realms/');

    const preview = await admin().POST('/customers/{realm_uid}/email_templates/{kind}/preview', { ...inRealm(realm.uid, 'password_reset'), body: { locale: 'es', user_id: user.id } });
    expect(preview.response.status).toBe(200);
    const link = /href="([^"]+)"/.exec(html)![1];
    // Equal but for the link's token, which only the mail carries (the preview has the example link).
    expect(preview.data!.html!.trim()).toBe(html.trim().replace(link, 'https://atrium.example/realms/personal-banking/password/reset/TOKEN'));
    expect(preview.data!.subject).toBe('Nueva contraseña para Banca Personal');

    // An English user of the realm gets the override's English.
    const english = await makeRealmUser(h, realm.uid);
    await askReset(english.email);
    expect((await smtp.next(english.email)).raw).toContain('Subject: Reset');
  });

  it('compiles MJML, in the preview as in the mail', async () => {
    const mjml = '<mjml><mj-body><mj-section><mj-column><mj-text>Code {{ code }}</mj-text></mj-column></mj-section></mj-body></mjml>';
    const saved = await admin().PUT('/email_templates/{kind}', {
      ...kind('one_time_code'),
      body: { format: 'mjml', locales: { en: { subject: 'Code', html: mjml, text: 'Your code is {{ code }}.' }, es: { subject: 'Código', html: mjml, text: 'Tu código es {{ code }}.' } } },
    });
    expect(saved.response.status).toBe(200);
    const preview = await admin().POST('/email_templates/{kind}/preview', { ...kind('one_time_code'), body: {} });
    expect(preview.response.status).toBe(200);
    expect(preview.data!.html).toMatch(/^<!doctype html>/i);
    expect(preview.data!.html).toContain('Code 123456');
    expect(preview.data!.html).not.toContain('<mj-');
    const bad = await refusal(admin().POST('/email_templates/{kind}/preview', {
      ...kind('one_time_code'),
      body: { draft: { format: 'mjml', subject: 'x', html: '<mjml><mj-body><mj-nothing></mj-nothing></mj-body></mjml>', text: 'x' } },
    }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toContain('MJML: line 1');
    // mj-include would read a file of the server's disk into the mail: it is never followed.
    // Raw: the answer's text is searched whatever its status.
    const include = await h.request({
      method: 'POST', url: '/api/admin/email_templates/one_time_code/preview',
      payload: { draft: { format: 'mjml', subject: 'x', html: '<mjml><mj-body><mj-include path="/etc/passwd" type="html" /><mj-section><mj-column><mj-text>ok</mj-text></mj-column></mj-section></mj-body></mjml>', text: 'x' } },
    });
    expect(include.body).not.toContain('root:');
  });

  it('a saved template that fails when sent falls back to the shipped wording: the link still goes out', async () => {
    // Fine with the example name (3 letters); past the time limit with a 255-letter one.
    const slow = '{% for a in (1..user.first_name.size) %}{% for b in (1..user.first_name.size) %}{% for c in (1..user.first_name.size) %}'
      + '{{ c }}{% endfor %}{% endfor %}{% endfor %}';
    const fallback = await makeRealm(h, { name: 'Fallback Bank' });
    const saved = await admin().PUT('/customers/{realm_uid}/email_templates/{kind}', {
      ...inRealm(fallback.uid, 'password_reset'),
      body: { format: 'html', locales: { en: { ...PLAIN, text: `${slow}{{ url }}` }, es: PLAIN } },
    });
    expect(saved.response.status).toBe(200);
    const user = await makeRealmUser(h, fallback.uid, { first_name: 'A'.repeat(255) });
    const path = `/realms/${fallback.uid}/password`;
    const page = await h.request({ method: 'GET', url: path, token: null });
    await h.request({
      method: 'POST', url: path, token: null, headers: { cookie: cookiesOf(page), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ identifier: user.email, csrf_token: inputValue(page.body, 'csrf_token') ?? '' }).toString(),
    });
    const mail = await smtp.next(user.email);
    expect(mail.raw).toContain('Subject: Reset your Fallback Bank password');
    expect(mailText(mail)).toMatch(/To choose a new password for Fallback Bank, open this link:\r\n\r\nhttp:\/\/atrium\.test\/realms\/[^/]+\/password\/reset\//);
  });

  it('keeps every save as a version; reset goes back to the next template', async () => {
    const invitation = kind('invitation');
    const v1 = { subject: 'Join {{ realm.name }}', html: '', text: 'Open {{ url }}' };
    for (const subject of ['Join {{ realm.name }}', 'Welcome to {{ realm.name }}']) {
      const res = await admin().PUT('/email_templates/{kind}', { ...invitation, body: { locales: { en: { ...v1, subject }, es: v1 } } });
      expect(res.response.status).toBe(200);
      expect(res.data).toMatchObject({ source: 'account', updated_by: h.ownerId });
    }
    // A realm without an override reads the account's default.
    expect((await admin().GET('/customers/{realm_uid}/email_templates/{kind}', inRealm(realm.uid, 'invitation'))).data).toMatchObject({ source: 'account', locales: { en: { subject: 'Welcome to {{ realm.name }}' } } });
    const reset = await admin().DELETE('/email_templates/{kind}', invitation);
    expect(reset.response.status).toBe(200);
    expect(reset.data!.source).toBe('shipped');
    const versions = await admin().GET('/email_templates/{kind}/versions', { params: { path: invitation.params.path, query: { per_page: '2' } } });
    expect(versions.response.status).toBe(200);
    expect(versions.data!.meta).toEqual({ total_entries: 3, per_page: 2, current_page: 1, total_pages: 2 });
    expect(versions.data!.versions.map((v) => v.action)).toEqual(['reset', 'saved']);
    expect(versions.data!.versions[1]).toMatchObject({ admin_id: h.ownerId, admin_name: 'Account Owner', format: 'html', locales: { en: { subject: 'Welcome to {{ realm.name }}' } } });
  });

  it('sends a test to the acting member only, through the mail queue', async () => {
    const sent = await admin().POST('/customers/{realm_uid}/email_templates/{kind}/test_send', { ...inRealm(realm.uid, 'activation'), body: { locale: 'es' } });
    expect(sent.response.status).toBe(202);
    expect(sent.data).toEqual({ to: OWNER_EMAIL });
    const mail = await smtp.next(OWNER_EMAIL);
    expect(mail.raw).toContain('Subject: Confirma tu cuenta de Banca Personal');
    expect(mailText(mail)).toContain('abre este enlace:\r\n\r\nhttps://atrium.example/realms/personal-banking/activation/TOKEN\r\n\r\nEs v=C3=A1lido durante 24 horas');
    // The shipped wording has no HTML part, as the mails before templates.
    expect(mail.raw).not.toContain('text/html');
  });

  it('permissions: templates.read reads, templates.manage writes, and a user\'s data needs realm.users.read', async () => {
    const reader = await memberToken(h, [{ key: 'account_user' }]);
    const activation = kind('activation');
    expect(await statusOf(admin(reader).GET('/email_templates/{kind}', activation))).toBe(200);
    expect(await statusOf(admin(reader).PUT('/email_templates/{kind}', { ...activation, body: { locales: { en: PLAIN, es: PLAIN } } }))).toBe(403);
    expect(await statusOf(admin(reader).DELETE('/customers/{realm_uid}/email_templates/{kind}', inRealm(realm.uid, 'password_reset')))).toBe(403);
    expect(await statusOf(admin(reader).POST('/email_templates/{kind}/test_send', { ...activation, body: {} }))).toBe(403);

    const user = await makeRealmUser(h, realm.uid);
    const preview = (token: string, body: { user_id?: number }) =>
      statusOf(admin(token).POST('/customers/{realm_uid}/email_templates/{kind}/preview', { ...inRealm(realm.uid, 'password_reset'), body }));
    expect(await preview(reader, {})).toBe(200);
    expect(await preview(reader, { user_id: user.id })).toBe(403);
    const realmAdmin = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    expect(await preview(realmAdmin, { user_id: user.id })).toBe(200);
    // A realm role reaches its realm's overrides only.
    expect(await statusOf(admin(realmAdmin).PUT('/email_templates/{kind}', { ...activation, body: { locales: { en: PLAIN, es: PLAIN } } }))).toBe(403);
    const other = await makeRealm(h);
    expect(await statusOf(admin(realmAdmin).GET('/customers/{realm_uid}/email_templates/{kind}', inRealm(other.uid, 'activation')))).toBe(403);
  });
});
