import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { redactUrl } from '../../src/http/logging.js';
import { OWNER_EMAIL, OWNER_PASSWORD, startHarness, type Harness } from '../helpers/harness.js';

describe('request logging', () => {
  let h: Harness;
  const lines: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    h = await startHarness();
    const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).trim().split('\n')); done(); } });
    app = await buildApp(h.ctx, { logger: pino({ level: 'info' }, sink) as unknown as FastifyBaseLogger });
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  it('writes one line per request and never a credential, cookie or secret query value', async () => {
    await app.inject({ method: 'GET', url: '/api/admin/roles?per_page=1', headers: { authorization: `Bearer ${h.ownerToken}` } });
    const signIn = await app.inject({ method: 'POST', url: '/api/admin/session', payload: { email: OWNER_EMAIL, password: OWNER_PASSWORD } });
    const cookie = signIn.cookies[0].value;
    await app.inject({ method: 'GET', url: '/api/admin/session?access_token=leaked-value&page=2', headers: { cookie: `atrium_admin=${cookie}` } });
    await app.inject({ method: 'GET', url: '/realms/bank/session/access/one-time-secret' });
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(4);
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/api/admin/roles?per_page=1', status: 200 });
    const all = lines.join('\n');
    for (const secret of [h.ownerToken, OWNER_PASSWORD, cookie, 'leaked-value', 'one-time-secret']) expect(all).not.toContain(secret);
    expect(all).toContain('access_token=%5Bredacted%5D');
  });

  it('masks secret query parameters and one-time link tokens', () => {
    expect(redactUrl('/realms/x/oauth/authorize?client_id=c&code_verifier=v&state=s')).toBe('/realms/x/oauth/authorize?client_id=c&code_verifier=%5Bredacted%5D&state=s');
    expect(redactUrl('/x?code=abc')).toBe('/x?code=%5Bredacted%5D');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });
});
