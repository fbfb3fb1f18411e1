import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Harness } from '../helpers/harness.js';

export const entriesUrl = (space: string, type: string) => `/api/admin/content/spaces/${space}/types/${type}/entries`;

/** Every field type, none required unless `required` says so. */
export const EVERY_FIELD = [
  { name: 'title', type: 'text', localized: true, sortable: true },
  { name: 'body', type: 'rich_text', localized: true },
  { name: 'pages', type: 'integer', sortable: true },
  { name: 'price', type: 'decimal', sortable: true },
  { name: 'featured', type: 'boolean' },
  { name: 'issued_on', type: 'date', sortable: true },
  { name: 'section', type: 'dropdown', options: ['news', 'sports'] },
  { name: 'labels', type: 'checkbox', options: ['a', 'b', 'c'] },
  { name: 'place', type: 'location' },
  { name: 'cover', type: 'asset' },
  { name: 'author', type: 'entry' },
  { name: 'related', type: 'entries' },
];

export interface EntryClient {
  create(body: Record<string, unknown>, token?: string): Promise<LightMyRequestResponse>;
  created(body: Record<string, unknown>): Promise<{ meta: Record<string, any>; fields: Record<string, any>; [key: string]: any }>;
  get(uuid: string, query?: string, token?: string): Promise<LightMyRequestResponse>;
  put(uuid: string, body: Record<string, unknown>, token?: string): Promise<LightMyRequestResponse>;
  post(uuid: string, action: 'publish' | 'unpublish', body?: Record<string, unknown>, token?: string): Promise<LightMyRequestResponse>;
  schedule(uuid: string, body: Record<string, unknown>, token?: string): Promise<LightMyRequestResponse>;
  remove(uuid: string, token?: string): Promise<LightMyRequestResponse>;
  list(query?: string, token?: string): Promise<LightMyRequestResponse>;
}

/** Requests to the entries of one type, with the owner's token unless told otherwise. */
export function entryClient(h: Harness, space: string, type: string): EntryClient {
  const url = entriesUrl(space, type);
  const as = (token?: string) => (token ? { token } : {});
  const client: EntryClient = {
    create: (body, token) => h.request({ method: 'POST', url, payload: body, ...as(token) }),
    created: async (body) => {
      const res = await client.create(body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    },
    get: (uuid, query = '', token) => h.request({ method: 'GET', url: `${url}/${uuid}${query}`, ...as(token) }),
    put: (uuid, body, token) => h.request({ method: 'PUT', url: `${url}/${uuid}`, payload: body, ...as(token) }),
    post: (uuid, action, body, token) => h.request({ method: 'POST', url: `${url}/${uuid}/${action}`, ...(body ? { payload: body } : {}), ...as(token) }),
    schedule: (uuid, body, token) => h.request({ method: 'PUT', url: `${url}/${uuid}/schedule`, payload: body, ...as(token) }),
    remove: (uuid, token) => h.request({ method: 'DELETE', url: `${url}/${uuid}`, ...as(token) }),
    list: (query = '', token) => h.request({ method: 'GET', url: `${url}${query}`, ...as(token) }),
  };
  return client;
}

export const fieldsOf = (res: LightMyRequestResponse) => (res.json().details ?? []).map((d: { field: string }) => d.field);
