import type { FastifyInstance } from 'fastify';
import {
  AtriumApiError, AtriumError, createAdminClient, createContentClient, createCustomersClient, createProfileClient,
  type AdminClient, type ContentClient, type CustomersClient, type ProfileClient,
} from '@atrium/client';
import type { Harness } from './harness.js';

const BASE = 'http://atrium.test';

/** A fetch that hands each request to the app in-process (`app.inject`): the typed client with no socket. */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({ method: request.method as 'GET', url: url.pathname + url.search, headers: Object.fromEntries(request.headers), payload });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of [value ?? []].flat()) headers.append(name, String(one));
    }
    const empty = [204, 205, 304].includes(answer.statusCode) || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers });
  };
}

/** The typed clients of the four catalogs over `app.inject`; the owner's token unless another is given (null: none). */
export const adminClient = (h: Harness, token: string | null = h.ownerToken): AdminClient =>
  createAdminClient({ baseUrl: BASE, token: token ?? undefined, fetch: injectFetch(h.app) });
export const customersClient = (h: Harness, realm: string, token?: string): CustomersClient =>
  createCustomersClient({ baseUrl: BASE, realm, token, fetch: injectFetch(h.app) });
export const contentClient = (h: Harness, token?: string): ContentClient =>
  createContentClient({ baseUrl: BASE, token, fetch: injectFetch(h.app) });
export const profileClient = (h: Harness, token: string): ProfileClient =>
  createProfileClient({ baseUrl: BASE, token, fetch: injectFetch(h.app) });

/** The status a typed call answered, resolved or refused: `expect(await statusOf(admin.GET(...))).toBe(404)`. */
export const statusOf = (call: Promise<{ response: Response }>): Promise<number> =>
  call.then(({ response }) => response.status, (error: unknown) => {
    if (error instanceof AtriumError) return error.status;
    throw error;
  });

/** The `{errors, details}` error a typed call was refused with; throws when the call resolved. */
export const refusal = (call: Promise<unknown>): Promise<AtriumApiError> =>
  call.then(() => { throw new Error('the call resolved; a refusal was expected'); }, (error: unknown) => {
    if (error instanceof AtriumApiError) return error;
    throw error;
  });
