import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Harness } from './harness.js';

let counter = 0;
export const uniqueUid = (prefix: string) => `${prefix}-${(counter++).toString(36)}${randomBytes(3).toString('hex')}`;

/** Creates a content space through the admin API and returns its body. */
export async function makeSpace(h: Harness, body: Record<string, unknown> = {}) {
  const res = await h.request({
    method: 'POST', url: '/api/admin/content/spaces', payload: { uid: uniqueUid('space'), name: 'Magazine', default_locale: 'en', locales: ['en', 'es'], ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Creates a content type in a space through the admin API and returns its body. */
export async function makeType(h: Harness, spaceUid: string, body: Record<string, unknown> = {}) {
  const res = await h.request({
    method: 'POST', url: `/api/admin/content/spaces/${spaceUid}/types`, payload: { uid: uniqueUid('type'), name: 'Article', fields: [], ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
