import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/logging.js';
import { OWNER_EMAIL, OWNER_PASSWORD, startHarness, type Harness } from '../helpers/harness.js';
import { loggedApp } from '../helpers/logged-app.js';

describe('request logging', () => {
  let h: Harness;
  let lines: string[];
  let app: FastifyInstance;
  beforeAll(async () => {
    // A logout URL on loopback is called only with the setting of a development machine.
    h = await startHarness({ OUTBOUND_ALLOW_PRIVATE: '1' });
    ({ app, lines } = await loggedApp(h));
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
    // No trace id without tracing (OTEL_EXPORTER_OTLP_ENDPOINT unset); see test/operations/tracing.test.ts.
    expect(requests[0]).not.toHaveProperty('trace_id');
    const all = lines.join('\n');
    for (const secret of [h.ownerToken, OWNER_PASSWORD, cookie, 'leaked-value', 'one-time-secret']) expect(all).not.toContain(secret);
    expect(all).toContain('access_token=%5Bredacted%5D');
  });

  it('masks every query value but the known harmless ones, and one-time link tokens', () => {
    expect(redactUrl('/realms/x/oauth/authorize?response_type=code&client_id=c&code_verifier=v&state=s&redirect_uri=https%3A%2F%2Fa%2Fcb%3Fk%3D1&scope=public'))
      .toBe('/realms/x/oauth/authorize?response_type=code&client_id=c&code_verifier=%5Bredacted%5D&state=%5Bredacted%5D&redirect_uri=%5Bredacted%5D&scope=public');
    expect(redactUrl('/api/admin/team_members?page=2&per_page=5&sort_by=email&order=desc&query=ana%40bank.test&hmac=x'))
      .toBe('/api/admin/team_members?page=2&per_page=5&sort_by=email&order=desc&query=%5Bredacted%5D&hmac=%5Bredacted%5D');
    expect(redactUrl('/x?code=abc')).toBe('/x?code=%5Bredacted%5D');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
    expect(redactUrl('/realms/bank/session/access/one-time?next=/x')).toBe('/realms/bank/session/access/[redacted]?next=%5Bredacted%5D');
    expect(redactUrl('/realms/bank/password/reset/one-time')).toBe('/realms/bank/password/reset/[redacted]');
    expect(redactUrl('/realms/bank/activation/one-time')).toBe('/realms/bank/activation/[redacted]');
    expect(redactUrl('/realms/activation/login')).toBe('/realms/activation/login');
    expect(redactUrl('/admin/invitation/one-time')).toBe('/admin/invitation/[redacted]');
    expect(redactUrl('/realms/bank/signup?invitation=one-time')).toBe('/realms/bank/signup?invitation=%5Bredacted%5D');
  });

  it('logs a database error without its parameters or details: no password hash, no secret hash', async () => {
    lines.length = 0;
    const headers = { authorization: `Bearer ${h.ownerToken}` };
    // No input makes the database fail, so a fault is planted: two checks refuse a name. The failing
    // inserts carry a password hash and a secret hash among their parameters, and PostgreSQL's detail
    // quotes the whole refused row.
    await h.ctx.db.execute(sql`alter table admins add constraint planted_fault check (first_name <> 'Boom')`);
    await h.ctx.db.execute(sql`alter table oauth_clients add constraint planted_fault check (name <> 'Boom')`);
    const member = await app.inject({
      method: 'POST', url: '/api/admin/team_members', headers,
      payload: { email: 'boom@example.com', first_name: 'Boom', password: 'a sturdy password', roles: [] },
    });
    await app.inject({ method: 'POST', url: '/api/admin/realms', headers, payload: { uid: 'logbank', name: 'Log bank' } });
    const client = await app.inject({
      method: 'POST', url: '/api/admin/customers/logbank/oauth_clients', headers,
      payload: { name: 'Boom', redirect_uris: ['https://app.example/cb'] },
    });
    expect([member.statusCode, client.statusCode]).toEqual([500, 500]);
    expect(member.json()).toEqual({ errors: ['Internal server error'], code: 'ATR_INTERNAL' });
    const errors = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'unexpected error');
    expect(errors).toHaveLength(2);
    for (const { err } of errors) {
      expect(err).toMatchObject({ type: 'DatabaseError', code: '23514', constraint: 'planted_fault', query: expect.stringMatching(/^insert into/) });
      expect(Object.keys(err).every((key) => ['type', 'code', 'constraint', 'table', 'column', 'query'].includes(key))).toBe(true);
    }
    const all = lines.join('\n');
    expect(all).not.toContain('scrypt$');
    expect(all).not.toMatch(/params|Failing row|boom@example|[0-9a-f]{64}/);
  });

  it('masks the query of a logout URL whose call failed', async () => {
    await app.inject({
      method: 'POST', url: '/api/admin/api_access/applications', headers: { authorization: `Bearer ${h.ownerToken}` },
      payload: { name: 'Unreachable', logout_url: 'http://127.0.0.1:1/logout?signature=s3cr3t-value&page=1' },
    });
    const signIn = await app.inject({ method: 'POST', url: '/api/admin/session', payload: { email: OWNER_EMAIL, password: OWNER_PASSWORD } });
    lines.length = 0;
    const out = await app.inject({
      method: 'DELETE', url: '/api/admin/session',
      headers: { cookie: `atrium_admin=${signIn.cookies[0].value}`, 'x-csrf-token': signIn.json().csrf_token },
    });
    expect(out.statusCode).toBe(204);
    await expect.poll(() => lines.map((l) => JSON.parse(l)).filter((l) => l.logoutUrl))
      .toEqual([expect.objectContaining({ logoutUrl: 'http://127.0.0.1:1/logout?signature=%5Bredacted%5D&page=1' })]);
    expect(lines.join('\n')).not.toContain('s3cr3t-value');
  });
});
