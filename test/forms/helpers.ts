import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Harness } from '../helpers/harness.js';
import { inputValue } from '../helpers/cookie-jar.js';
import { uniqueUid } from '../helpers/content.js';

export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export async function ok(res: LightMyRequestResponse, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}

/** Every field type, two steps, a condition (details shown when topic is "other") and a file field. */
export const EVERY_FIELD = [
  { name: 'full_name', type: 'text', required: true, labels: { en: 'Name', es: 'Nombre' }, min_length: 2, pattern: '[A-Za-z =+@-]+' },
  { name: 'email', type: 'email', required: true, labels: { en: 'Email', es: 'Correo' } },
  { name: 'age', type: 'number', labels: { en: 'Age', es: 'Edad' }, min: 18, max: 120 },
  { name: 'born', type: 'date', labels: { en: 'Birth date', es: 'Nacimiento' } },
  { name: 'topic', type: 'single_choice', required: true, labels: { en: 'Topic', es: 'Tema' }, options: [{ value: 'sales', labels: { en: 'Sales', es: 'Ventas' } }, { value: 'other', labels: { en: 'Other', es: 'Otro' } }] },
  { name: 'details', type: 'long_text', required: true, labels: { en: 'Details', es: 'Detalles' }, show_if: { field: 'topic', value: 'other' } },
  { name: 'colors', type: 'multiple_choice', labels: { en: 'Colors', es: 'Colores' }, options: [{ value: 'red', labels: { en: 'Red' } }, { value: 'blue', labels: { en: 'Blue' } }] },
  { name: 'news', type: 'checkbox', labels: { en: 'Newsletter', es: 'Boletín' } },
  { name: 'terms', type: 'consent', labels: { en: 'I accept the terms', es: 'Acepto las condiciones' } },
  { name: 'photo', type: 'file', labels: { en: 'Photo', es: 'Foto' } },
];

export const STEPS = [
  { labels: { en: 'About you', es: 'Sobre ti' }, fields: ['full_name', 'email', 'age', 'born'] },
  { labels: { en: 'Your request', es: 'Tu petición' }, fields: ['topic', 'details', 'colors', 'news', 'terms', 'photo'] },
];

export async function makeForm(h: Harness, body: Record<string, unknown> = {}, token?: string) {
  return ok(await h.request({
    method: 'POST', url: '/api/admin/forms', ...(token ? { token } : {}),
    payload: { uid: uniqueUid('form'), name: 'Contact', locales: ['en', 'es'], default_locale: 'en', fields: EVERY_FIELD, steps: STEPS, ...body },
  }), 201);
}

/** The hosted page's form token (the page as a browser gets it). */
export async function pageToken(h: Harness, uid: string, headers: Record<string, string> = {}): Promise<string> {
  const page = await h.request({ method: 'GET', url: `/forms/${uid}`, token: null, headers });
  expect(page.statusCode, page.body).toBe(200);
  return inputValue(page.body, 'form_token')!;
}

export function postPage(h: Harness, uid: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return h.request({
    method: 'POST', url: `/forms/${uid}`, token: null,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString(),
  });
}

export function multipart(fields: Record<string, string>, file?: { field: string; name: string; content: Buffer; type: string }) {
  const boundary = 'formboundary42';
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const responses = async (h: Harness, uid: string, query = '') =>
  (await ok(await h.request({ method: 'GET', url: `/api/admin/forms/${uid}/responses?per_page=100${query}` }))).responses;
