import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputValue } from '../helpers/cookie-jar.js';
import { uniqueUid } from '../helpers/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeForm, ok, postPage, responses } from './helpers.js';

let h: Harness;

beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

const admin = (method: 'GET' | 'POST', url: string, payload?: unknown) => h.request({ method, url: `/api/admin${url}`, payload: payload as object });

describe('the site page block "form"', () => {
  it('renders a public form with a fresh token on each request, posted to the hosted page', async () => {
    const form = await makeForm(h, { fields: [{ name: 'email', type: 'email', required: true, labels: { en: 'Email', es: 'Correo' } }], steps: [] });
    const uid = uniqueUid('site');
    await ok(await admin('POST', '/sites', { uid, name: 'Shop', default_locale: 'en', locales: ['en', 'es'] }), 201);
    await ok(await admin('POST', `/sites/${uid}/layouts`, { name: 'main', source: '<html><body>{% zone "main" %}</body></html>' }), 201);
    await ok(await admin('POST', `/sites/${uid}/layout_pages`, {
      layout: 'main', locales: { en: { title: 'Home', slug: '' }, es: { title: 'Inicio', slug: '' } },
      blocks: [{ zone: 'main', type: 'form', form_uid: form.uid }],
    }), 201);
    const bad = await admin('POST', `/sites/${uid}/layout_pages`, { layout: 'main', locales: { en: { title: 'X', slug: 'x' } }, blocks: [{ zone: 'main', type: 'form' }] });
    expect(bad.statusCode).toBe(422);
    await ok(await admin('POST', `/sites/${uid}/publish`, { note: 'First' }), 201);

    const first = await h.request({ method: 'GET', url: `/sites/${uid}/`, token: null });
    const second = await h.request({ method: 'GET', url: `/sites/${uid}/es/`, token: null });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain(`action="/forms/${form.uid}"`);
    expect(second.body).toContain('Correo');
    const token = inputValue(first.body, 'form_token')!;
    expect(token).not.toBe(inputValue(second.body, 'form_token'));
    h.clock.advance(5_000);
    expect((await postPage(h, form.uid, { email: 'site@example.com', form_token: token })).statusCode).toBe(201);
    expect((await responses(h, form.uid))[0]).toMatchObject({ email: 'site@example.com', status: 'received' });
  });
});
