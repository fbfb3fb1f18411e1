import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import type { SmtpListener } from '../helpers/smtp.js';
import { requestCodeAtPage } from '../otp/flow.js';

describe('a realm user\'s locale chooses the language of their mails', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realm: { uid: string; name: string };

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realm = await makeRealm(h, { name: 'Banca', settings: { otp_resend_wait_seconds: 0 } });
  });
  afterAll(async () => { await h?.close(); });

  it('set by the user through PUT /me, by an admin on the user, and read by the one-time code mail', async () => {
    const user = await makeRealmUser(h, realm.uid);
    expect(user.locale).toBeNull();
    const cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const me = (payload: object) => h.request({ method: 'PUT', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie }, payload });

    const unknown = await me({ locale: 'fr' });
    expect(unknown.statusCode, unknown.body).toBe(422);
    const spanish = await me({ locale: 'es' });
    expect(spanish.statusCode, spanish.body).toBe(200);
    expect(spanish.json().locale).toBe('es');

    // The otp_login page is read in English; the code comes in the user's Spanish, from the shipped wording.
    expect((await requestCodeAtPage(h, realm.uid, user.email)).statusCode).toBe(303);
    const mail = await smtp.next(user.email);
    expect(mail.raw).toContain('Subject: Tu =?UTF-8?Q?c=C3=B3digo_de_inicio_de_sesi=C3=B3n?= de Banca');
    expect(mail.raw).toMatch(/de Banca es \d{6}\./);

    const cleared = await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${user.id}`, payload: { locale: null } });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().locale).toBeNull();
    expect((await requestCodeAtPage(h, realm.uid, user.email)).statusCode).toBe(303);
    expect((await smtp.next(user.email)).raw).toContain('Subject: Your Banca sign-in code');
    const bad = await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${user.id}`, payload: { locale: 'xx' } });
    expect(bad.json().details).toEqual([{ field: 'locale', messages: ['is not a supported locale (en, es)'] }]);
  });
});
