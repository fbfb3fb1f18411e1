import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainWebhooks } from '../../src/webhooks/worker.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { mailText, type SmtpListener } from '../helpers/smtp.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { makeForm, multipart, ok, pageToken, PNG, postPage, responses } from './helpers.js';

let h: Harness;
let smtp: SmtpListener;
let receiver: Receiver;

beforeAll(async () => {
  ({ h, smtp } = await startHarnessWithSmtp({ WEBHOOKS_ALLOW_PRIVATE: '1' }));
  receiver = await startReceiver(h.clock);
  const hook = await ok(await h.request({ method: 'POST', url: '/api/admin/webhooks', payload: { url: `${receiver.url}/hook`, event_types: ['form.response.created'] } }), 201);
  receiver.secrets.push(hook.secret);
});
afterAll(async () => { await receiver?.close(); await h?.close(); });

const FILLED = { full_name: 'Ada Lovelace', email: 'ada@example.com', age: '36', born: '1815-12-10', topic: 'sales', details: 'ignored: hidden', 'colors.1': 'blue', news: 'true', terms: 'true' };
const wait = () => h.clock.advance(5_000);

describe('the hosted page', () => {
  it('shows every step as a fieldset, in the browser\'s language, and takes a form-encoded response (hidden fields ignored)', async () => {
    const form = await makeForm(h, { notify_emails: ['team@example.com'], confirmation: { email_field: 'email' }, success_message: { en: 'Thanks!', es: '¡Gracias!' } });
    const page = await h.request({ method: 'GET', url: `/forms/${form.uid}`, token: null, headers: { 'accept-language': 'es-MX,es;q=0.9' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<legend>Sobre ti</legend>');
    expect(page.body).toContain('enctype="multipart/form-data"');
    expect(page.body).not.toContain('<script');

    const token = await pageToken(h, form.uid);
    wait();
    const res = await postPage(h, form.uid, { ...FILLED, form_token: token, locale: 'en' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).toContain('Thanks!');
    const [stored] = await responses(h, form.uid);
    expect(stored).toMatchObject({ status: 'received', email: 'ada@example.com', spam_reason: null, locale: 'en' });
    expect(stored.answers).toEqual({ full_name: 'Ada Lovelace', email: 'ada@example.com', age: 36, born: '1815-12-10', topic: 'sales', colors: ['blue'], news: true, terms: true });

    const note = mailText(await smtp.next('team@example.com'));
    expect(note).toContain('New response to Contact');
    expect(note).toContain('Name: Ada Lovelace');
    expect(mailText(await smtp.next('ada@example.com'))).toContain('We received your response to Contact');
    await drainWebhooks(h.ctx);
    const delivered = receiver.received.map((r) => JSON.parse(r.body));
    expect(delivered.find((d) => d.data.response.id === stored.id)).toMatchObject({ type: 'form.response.created', data: { form: { uid: form.uid } } });
    expect(receiver.received.at(-1)!.verifiedWith).toHaveLength(1);
  });

  it('takes a multipart response with a file, and shows the condition\'s field when it holds', async () => {
    const form = await makeForm(h);
    const token = await pageToken(h, form.uid);
    wait();
    const body = multipart({ ...FILLED, topic: 'other', details: 'Tell me more', form_token: token }, { field: 'photo', name: 'me.png', content: PNG, type: 'image/png' });
    const res = await h.request({ method: 'POST', url: `/forms/${form.uid}`, token: null, ...body });
    expect(res.statusCode, res.body).toBe(201);
    const [stored] = await responses(h, form.uid);
    expect(stored.answers).toMatchObject({ topic: 'other', details: 'Tell me more', colors: ['blue'], photo: { name: 'me.png', size: PNG.length, content_type: 'image/png' } });

    // An admin downloads it, served as the type it was checked to be and never cached.
    const fileUrl = `/api/admin/forms/${form.uid}/responses/${stored.id}/files/photo`;
    const file = await h.request({ method: 'GET', url: fileUrl });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers).toMatchObject({
      'content-type': 'image/png', 'content-disposition': 'attachment; filename="me.png"; filename*=UTF-8\'\'me.png',
      'x-content-type-options': 'nosniff', 'cache-control': 'private, no-store',
    });
    for (const url of [`/api/admin/forms/${form.uid}/responses/${stored.id}/files/full_name`, `/api/admin/forms/${form.uid}/responses/${stored.id}/files/__proto__`, `/api/admin/forms/${form.uid}/responses/2147483647/files/photo`]) {
      const missing = await h.request({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
    }
    expect((await h.request({ method: 'GET', url: fileUrl, token: null })).statusCode).toBe(401);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/forms/${form.uid}/responses/${stored.id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: fileUrl })).statusCode).toBe(404);

    const refused = multipart({ ...FILLED, form_token: await pageToken(h, form.uid) }, { field: 'photo', name: 'me.png', content: Buffer.from('not a picture'), type: 'image/png' });
    const bad = await h.request({ method: 'POST', url: `/forms/${form.uid}`, token: null, ...refused });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('me.png: content does not match the extension');
  });

  it('answers 422 with one error per field in the form\'s language, keeping what was typed', async () => {
    const form = await makeForm(h);
    const res = await postPage(h, form.uid, { full_name: 'X', email: 'nope', age: 'old', topic: 'other', form_token: await pageToken(h, form.uid), locale: 'es' });
    expect(res.statusCode).toBe(422);
    for (const text of ['es demasiado corto', 'no es una dirección de correo válida', 'debe ser un número', 'no puede estar en blanco', 'debe ser aceptado']) expect(res.body).toContain(text);
    expect(res.body).toContain('value="X"');
  });

  it('answers 410 for a closed or full form, and sends a realm_users form\'s visitor to sign in', async () => {
    const closed = await makeForm(h, { closes_at: new Date(h.clock.now().getTime() - 1000).toISOString() });
    expect((await h.request({ method: 'GET', url: `/forms/${closed.uid}`, token: null })).statusCode).toBe(410);
    expect((await h.request({ method: 'GET', url: `/api/content/forms/${closed.uid}`, token: null })).json().errors[0]).toContain('no longer takes responses');
    const realm = await makeRealm(h);
    const members = await makeForm(h, { realm_uid: realm.uid, access: 'realm_users' });
    const visit = await h.request({ method: 'GET', url: `/forms/${members.uid}`, token: null });
    expect(visit.statusCode).toBe(303);
    expect(visit.headers.location).toBe(`/realms/${realm.uid}/login?redirect_uri=${encodeURIComponent(`/forms/${members.uid}`)}`);
  });
});

describe('the JSON doors', () => {
  const answers = { full_name: 'Grace Hopper', email: 'grace@example.com', topic: 'sales', terms: true, colors: ['red'], age: 40 };

  it('content catalog: the definition with a token, then the response; 422 by field name; realm forms unknown', async () => {
    const form = await makeForm(h, { success_message: { en: 'Got it' } });
    const def = await ok(await h.request({ method: 'GET', url: `/api/content/forms/${form.uid}`, token: null }));
    expect(def.fields).toHaveLength(10);
    expect(def.honeypot).toBe('website_URL');
    wait();
    const res = await h.request({ method: 'POST', url: `/api/content/forms/${form.uid}/responses`, token: null, payload: { token: def.token, answers } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ status: 'received', message: 'Got it', redirect_url: null });
    const bad = await h.request({ method: 'POST', url: `/api/content/forms/${form.uid}/responses`, token: null, payload: { token: def.token, answers: { email: 5, photo: 'x', nope: 1 }, locale: 'es' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'full_name', 'nope', 'photo', 'terms', 'topic']);
    expect(bad.json().details.find((d: { field: string }) => d.field === 'email').messages).toEqual(['debe ser texto']);

    const realm = await makeRealm(h);
    const members = await makeForm(h, { realm_uid: realm.uid, access: 'realm_users' });
    expect((await h.request({ method: 'GET', url: `/api/content/forms/${members.uid}`, token: null })).statusCode).toBe(404);
  });

  it('answers a changed form as changed, and a deleted one 404, though the doors keep forms in a cache', async () => {
    const form = await makeForm(h);
    const def = await ok(await h.request({ method: 'GET', url: `/api/content/forms/${form.uid}`, token: null }));
    wait();
    const post = (token: string) => h.request({ method: 'POST', url: `/api/content/forms/${form.uid}/responses`, token: null, payload: { token, answers } });
    expect((await post(def.token)).statusCode).toBe(201);
    // Renamed through the admin API: the next definition says so at once.
    await ok(await h.request({ method: 'PUT', url: `/api/admin/forms/${form.uid}`, payload: { name: 'Renamed' } }));
    expect((await ok(await h.request({ method: 'GET', url: `/api/content/forms/${form.uid}`, token: null }))).name).toBe('Renamed');
    // Deleted behind the cache's back (as by another process whose notice is late): a response is 404, not a failure.
    const second = (await ok(await h.request({ method: 'GET', url: `/api/content/forms/${form.uid}`, token: null }))).token;
    await h.ctx.db.execute(sql`delete from forms where uid = ${form.uid}`);
    const late = await post(second);
    expect(late.statusCode, late.body).toBe(404);
    expect(late.json()).toEqual({ errors: ['Form not found'] });
  });

  it('customers API: a signed-in user answers a realm_users form; the response carries the user and records a business event', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const form = await makeForm(h, { realm_uid: realm.uid, access: 'realm_users', fields: [{ name: 'note', type: 'text', required: true, labels: { en: 'Note' } }], confirmation: { email_field: null }, steps: [] });
    const cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const base = `/api/customers/realms/${realm.uid}/forms/${form.uid}`;
    const def = await ok(await h.request({ method: 'GET', url: base, token: null, headers: { cookie } }));
    wait();
    const res = await h.request({ method: 'POST', url: `${base}/responses`, token: null, headers: { cookie }, payload: { token: def.token, answers: { note: 'hi' } } });
    expect(res.statusCode, res.body).toBe(201);
    const [stored] = await responses(h, form.uid);
    expect(stored).toMatchObject({ user_id: user.id, email: user.email.toLowerCase(), status: 'received', answers: { note: 'hi' } });
    expect(mailText(await smtp.next(user.email))).toContain('We received your response');
    const events = await ok(await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/events`, token: null, headers: { cookie } }));
    expect(events.events.map((e: { title: string }) => e.title)).toContain('Form answered');
    expect((await h.request({ method: 'POST', url: `${base}/responses`, token: null, payload: { answers: { note: 'x' } } })).statusCode).toBe(401);
  });
});
