import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputValue } from '../helpers/cookie-jar.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { impersonatedSession, makeRealm, makeRealmUser, REALM_USER_PASSWORD } from '../helpers/realms.js';
import { resetLinkIn, type ReceivedMail, type SmtpListener } from '../helpers/smtp.js';

const SPANISH = 'es-MX,es;q=0.9';

/** A mail's subject and text as its reader sees them: encoded words and quoted-printable decoded. */
function readMail(mail: ReceivedMail): { subject: string; text: string } {
  const [head, ...rest] = mail.raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  // Whitespace between two encoded words is not part of the text; beside plain words it is (RFC 2047, 6.2).
  const words = (value: string) => value.replace(/(\?=)\s+(?==\?)/g, '$1').replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) => (kind.toLowerCase() === 'b'
    ? Buffer.from(text, 'base64').toString('utf8')
    : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8')));
  const subject = words(/^subject: (.*)$/im.exec(headers)?.[1] ?? '').trim();
  const body = rest.join('\n\n');
  const text = /content-transfer-encoding: quoted-printable/i.test(headers)
    ? Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8')
    : /content-transfer-encoding: base64/i.test(headers) ? Buffer.from(body, 'base64').toString('utf8') : body;
  return { subject, text };
}

const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`);
const heading = (page: string) => /<h1>([^<]*)<\/h1>/.exec(page)?.[1];
const title = (page: string) => /<title>([^<]*)<\/title>/.exec(page)?.[1];
const alert = (page: string) => /role="alert"[^>]*>([^<]*)</.exec(page)?.[1];

describe('realm pages in English and Spanish', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realm: { uid: string; name: string };
  let spanishRealm: { uid: string; name: string };

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realm = await makeRealm(h, { name: 'Banca Personal' });
    spanishRealm = await makeRealm(h, { name: 'Banca', settings: { default_language: 'es' } });
  });
  afterAll(async () => { await h?.close(); });

  const get = (url: string, language: string | null = SPANISH, cookies: string[] = []) => h.request({
    method: 'GET', url, token: null,
    headers: { ...(language ? { 'accept-language': language } : {}), ...(cookies.length ? { cookie: cookies.join('; ') } : {}) },
  });

  /** Opens a form page in Spanish and posts it with the page's cookies, hidden fields and `fields`. */
  async function submit(path: string, fields: Record<string, string>, cookies: string[] = [], postTo = path) {
    const page = await get(path, SPANISH, cookies);
    expect(page.statusCode, page.body).toBe(200);
    const jar = [...cookies, ...cookiesOf(page)];
    const res = await h.request({
      method: 'POST', url: postTo, token: null,
      headers: { cookie: jar.join('; '), 'content-type': 'application/x-www-form-urlencoded', 'accept-language': SPANISH },
      payload: new URLSearchParams({ csrf_token: inputValue(page.body, 'csrf_token') ?? '', ...fields }).toString(),
    });
    return Object.assign(res, { jar: [...jar, ...cookiesOf(res)] });
  }

  function expectSpanish(res: LightMyRequestResponse, status: number, h1: string) {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.body).toMatch(/^<!doctype html>\n<html lang="es">/);
    expect(heading(res.body)).toBe(h1);
    expect(res.headers.vary).toBe('Accept-Language');
  }

  async function signedIn(): Promise<{ user: { id: number; email: string }; cookies: string[] }> {
    const user = await makeRealmUser(h, realm.uid);
    const res = await submit(`/realms/${realm.uid}/login`, { username: user.email, password: REALM_USER_PASSWORD });
    expect(res.statusCode, res.body).toBe(303);
    return { user, cookies: res.jar };
  }

  it('serves the sign-in page in Spanish to a browser that prefers it, and in English otherwise', async () => {
    const page = await get(`/realms/${realm.uid}/login`);
    expectSpanish(page, 200, 'Iniciar sesión en Banca Personal');
    expect(title(page.body)).toBe('Iniciar sesión · Banca Personal');
    expect(page.body).toContain('<label for="username">Correo electrónico o nombre de usuario');
    expect(page.body).toContain('<button type="submit">Iniciar sesión</button>');
    expect(page.body).toContain('¿Olvidaste tu contraseña?');
    expect(page.body).toContain('Crear una cuenta');

    const wrong = await submit(`/realms/${realm.uid}/login`, { username: 'nobody', password: 'wrong password' });
    expectSpanish(wrong, 401, 'Iniciar sesión en Banca Personal');
    expect(title(wrong.body)).toBe('Error: Iniciar sesión · Banca Personal');
    expect(alert(wrong.body)).toBe('El correo electrónico, el nombre de usuario o la contraseña no son correctos.');

    for (const language of [null, 'en-GB,en;q=0.9', 'fr-FR, de;q=0.5']) {
      const english = await get(`/realms/${realm.uid}/login`, language);
      expect(english.body).toMatch(/<html lang="en">/);
      expect(heading(english.body)).toBe('Sign in to Banca Personal');
    }
    const preferred = await get(`/realms/${realm.uid}/login`, 'en;q=0.5, es;q=0.8');
    expect(heading(preferred.body)).toBe('Iniciar sesión en Banca Personal');
  });

  it('falls back to the realm\'s default language when the browser names neither', async () => {
    for (const language of [null, 'fr-FR', 'de, *;q=0.1']) {
      const page = await get(`/realms/${spanishRealm.uid}/login`, language);
      expectSpanish(page, 200, 'Iniciar sesión en Banca');
    }
    const english = await get(`/realms/${spanishRealm.uid}/login`, 'en-US,en;q=0.9');
    expect(heading(english.body)).toBe('Sign in to Banca');
    expect(english.body).toMatch(/<html lang="en">/);

    const settings = await h.request({ method: 'GET', url: `/api/admin/realms/${spanishRealm.uid}` });
    expect(settings.json().settings.default_language).toBe('es');
    const bad = await h.request({ method: 'PUT', url: `/api/admin/realms/${spanishRealm.uid}`, payload: { settings: { default_language: 'fr' } } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([{ field: 'settings.default_language', messages: ['must be one of en, es'] }]);
  });

  it('serves the profile, the password change and the sign-out page in Spanish', async () => {
    const { user, cookies } = await signedIn();
    const impersonated = await get(`/realms/${realm.uid}/profile`, SPANISH, [await impersonatedSession(h, realm.uid, user.id)]);
    expect(impersonated.body).toContain('Suplantación de identidad por <strong>owner@atrium.test</strong>');
    const profile = await get(`/realms/${realm.uid}/profile`, SPANISH, cookies);
    expectSpanish(profile, 200, 'Tu perfil de Banca Personal');
    expect(profile.body).toContain('<h2>Cambiar contraseña</h2>');
    expect(profile.body).toContain('<dt>Correo electrónico</dt>');

    const wrong = await submit(`/realms/${realm.uid}/profile`, { current: 'not it', password: 'a new secret 22', confirmation: 'a new secret 22' },
      cookies, `/realms/${realm.uid}/profile/password`);
    expectSpanish(wrong, 401, 'Tu perfil de Banca Personal');
    expect(alert(wrong.body)).toBe('La contraseña actual no es correcta.');
    const weak = await submit(`/realms/${realm.uid}/profile`, { current: REALM_USER_PASSWORD, password: 'short', confirmation: 'short' },
      cookies, `/realms/${realm.uid}/profile/password`);
    expect(alert(weak.body)).toBe('La nueva contraseña tiene muy pocos caracteres (el mínimo es 8).');

    const logout = await get(`/realms/${realm.uid}/logout`, SPANISH, cookies);
    expectSpanish(logout, 200, 'Cerrar sesión en Banca Personal');
    expect(logout.body).toContain('Has iniciado sesión como <strong>Ada Lovelace</strong>.');
    expect(logout.body).toContain('<button type="submit">Cerrar sesión</button>');
  });

  it('serves sign-in by code in Spanish and mails the code in the page\'s language', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const request = await get(`/realms/${realm.uid}/otp_login`);
    expectSpanish(request, 200, 'Iniciar sesión en Banca Personal');
    expect(title(request.body)).toBe('Iniciar sesión con un código · Banca Personal');
    const sent = await submit(`/realms/${realm.uid}/otp_login`, { identifier: user.email });
    expect(sent.statusCode, sent.body).toBe(303);
    const mail = readMail(await smtp.next(user.email));
    expect(mail.subject).toBe('Tu código de inicio de sesión de Banca Personal');
    expect(mail.text).toMatch(/^Tu código de inicio de sesión de Banca Personal es \d{6}\.\s+Es válido durante 5 minutos y funciona una sola vez\./);

    const code = await get(`/realms/${realm.uid}/otp_code`, SPANISH, sent.jar);
    expectSpanish(code, 200, 'Iniciar sesión en Banca Personal');
    expect(title(code.body)).toBe('Escribe tu código · Banca Personal');
    expect(code.body).toContain(`Si <strong>${user.email}</strong> pertenece a una cuenta, enviamos un código de 6 dígitos`);
    const malformed = await submit(`/realms/${realm.uid}/otp_code`, { code: '12' }, sent.jar);
    expect(alert(malformed.body)).toBe('Escribe los 6 dígitos del código que te enviamos.');
  });

  it('serves sign-up in Spanish, with the user writer\'s field errors translated', async () => {
    const taken = await makeRealmUser(h, realm.uid, { username: 'ya_tomado' });
    const page = await get(`/realms/${realm.uid}/signup`);
    expectSpanish(page, 200, 'Crea tu cuenta de Banca Personal');
    expect(page.body).toContain('<button type="submit">Crear cuenta</button>');

    const blank = await submit(`/realms/${realm.uid}/signup`, { email: '', username: taken.username, password: 'short' });
    expectSpanish(blank, 422, 'Crea tu cuenta de Banca Personal');
    expect(alert(blank.body)).toBe('Corrige los campos marcados abajo.');
    expect(blank.body).toContain('<span class="field-error" id="email-error">Correo electrónico: no puede estar en blanco.</span>');
    expect(blank.body).toContain('<span class="field-error" id="username-error">Nombre de usuario (opcional): ya está en uso.</span>');
    expect(blank.body).toContain('<span class="field-error" id="password-error">Contraseña: tiene muy pocos caracteres (el mínimo es 8).</span>');
    const invalid = await submit(`/realms/${realm.uid}/signup`, { email: 'not an address', password: 'password123' });
    expect(invalid.body).toContain('Correo electrónico: no tiene un formato válido.');
    expect(invalid.body).toContain('Contraseña: es demasiado común.');

    const closed = await makeRealm(h, { settings: { activation_mode: 'invitation_only' } });
    const unavailable = await get(`/realms/${closed.uid}/signup`);
    expectSpanish(unavailable, 404, 'Registro solo por invitación');
  });

  it('mails the activation link of an activation_email sign-up in the page\'s language, and its confirm page is Spanish', async () => {
    const pending = await makeRealm(h, { name: 'Banca Pendiente', settings: { activation_mode: 'activation_email' } });
    const email = `nuevo-${pending.uid}@example.com`;
    const signUp = await submit(`/realms/${pending.uid}/signup`, { email, password: 'a new secret 44' });
    expectSpanish(signUp, 200, 'Revisa tu correo electrónico');
    expect(signUp.body).toContain(`Enviamos un enlace a <strong>${email}</strong> para confirmar tu dirección.`);
    const mail = readMail(await smtp.next(email));
    expect(mail.subject).toBe('Confirma tu cuenta de Banca Pendiente');
    expect(mail.text).toContain('Para confirmar tu dirección de correo electrónico y activar tu cuenta de Banca Pendiente, abre este enlace:');
    expect(mail.text).toContain('Es válido durante 24 horas y funciona una sola vez.');
    const link = /http:\/\/atrium\.test(\/realms\/\S+\/activation\/[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(link).toBeDefined();

    const confirm = await get(link!);
    expectSpanish(confirm, 200, 'Activa tu cuenta de Banca Pendiente');
    expect(confirm.body).toContain(`Confirma que <strong>${email}</strong> es tu dirección de correo electrónico`);
    expect(confirm.body).toContain('<button type="submit">Activar mi cuenta</button>');
  });

  it('serves the forgotten password pages in Spanish and mails the link in the page\'s language', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const request = await get(`/realms/${realm.uid}/password`);
    expectSpanish(request, 200, 'Restaurar contraseña de Banca Personal');
    const sent = await submit(`/realms/${realm.uid}/password`, { identifier: user.email });
    expectSpanish(sent, 200, 'Restaurar contraseña de Banca Personal');
    expect(sent.body).toContain(`Si existe una cuenta para <strong>${user.email}</strong>, enviamos un enlace a su correo electrónico.`);
    const received = await smtp.next(user.email);
    const mail = readMail(received);
    expect(mail.subject).toBe('Restaurar contraseña de Banca Personal');
    expect(mail.text).toContain('Para elegir una nueva contraseña de Banca Personal, abre este enlace:');
    expect(mail.text).toContain('Es válido durante 30 minutos y funciona una sola vez.');
    const link = resetLinkIn(received);

    const reset = await get(link);
    expectSpanish(reset, 200, 'Elige una nueva contraseña de Banca Personal');
    const differ = await submit(link!, { password: 'a new secret 33', confirmation: 'another one 33' });
    expect(alert(differ.body)).toBe('Las dos contraseñas nuevas no coinciden.');
    const unknown = await get(`/realms/${realm.uid}/password/reset/${'x'.repeat(43)}`);
    expectSpanish(unknown, 404, 'Este enlace no es válido');
  });

  it('mails in the realm\'s default language when the page is in it', async () => {
    const user = await makeRealmUser(h, spanishRealm.uid);
    const page = await h.request({ method: 'GET', url: `/realms/${spanishRealm.uid}/otp_login`, token: null });
    await h.request({
      method: 'POST', url: `/realms/${spanishRealm.uid}/otp_login`, token: null,
      headers: { cookie: cookiesOf(page).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf_token: inputValue(page.body, 'csrf_token') ?? '', identifier: user.email }).toString(),
    });
    expect(readMail(await smtp.next(user.email)).subject).toBe('Tu código de inicio de sesión de Banca');
  });

  it('mails an invitation, which no page asks for, in the realm\'s default language', async () => {
    const email = `invitada-${spanishRealm.uid}@example.com`;
    const res = await h.request({ method: 'POST', url: `/api/admin/customers/${spanishRealm.uid}/users/invitations`, payload: { email } });
    expect(res.statusCode, res.body).toBe(201);
    const mail = readMail(await smtp.next(email));
    expect(mail.subject).toBe('Invitación a Banca');
    expect(mail.text).toContain('Es válido durante 7 días y funciona una sola vez.');
  });

  it('serves the error pages of realm addresses in Spanish', async () => {
    const unknownRealm = await get('/realms/no-such-realm/login');
    expectSpanish(unknownRealm, 404, 'Página no encontrada');
    const link = await get(`/realms/${realm.uid}/session/access/${'x'.repeat(43)}`);
    expectSpanish(link, 404, 'Enlace no encontrado');

    const page = await get(`/realms/${realm.uid}/login`);
    const twice = await h.request({
      method: 'POST', url: `/realms/${realm.uid}/login`, token: null,
      headers: { cookie: cookiesOf(page).join('; '), 'content-type': 'application/x-www-form-urlencoded', 'accept-language': SPANISH },
      payload: 'username=a&username=b&password=x',
    });
    expectSpanish(twice, 400, 'Solicitud no válida');

    const authorize = await get(`/realms/${realm.uid}/oauth/authorize?response_type=code`);
    expectSpanish(authorize, 400, 'Solicitud de inicio de sesión no válida');
    expect(alert(authorize.body)).toBe('La solicitud no indica su aplicación (client_id).');
    const noRealm = await get('/realms/no-such-realm/oauth/authorize?response_type=code');
    expectSpanish(noRealm, 404, 'Dominio desconocido');
  });
});
