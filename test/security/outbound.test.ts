import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { isPrivateAddress } from '../../src/net/addresses.js';
import { signIn } from '../helpers/admin.js';
import { OWNER_EMAIL, OWNER_PASSWORD, startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';

/**
 * The outbound guard (src/net/outbound.ts) on a server WITHOUT OUTBOUND_ALLOW_PRIVATE: no address an
 * admin sets (an identity provider's issuer, an application's logout URL) reaches the server's own
 * host, whatever its spelling, and what the admin is told does not say what listens there.
 */

describe('the address classifier', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast and unspecified IPv4 addresses', () => {
    for (const address of [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '169.254.0.1',
      '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.250', '255.255.255.255', '192.0.2.1', '198.18.0.1',
    ]) expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.1', '172.32.0.1', '169.255.0.1', '223.255.255.255']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('refuses the same in IPv6, and IPv4-mapped addresses by the IPv4 address they carry', () => {
    for (const address of [
      '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'ff05::2', '2001:db8::1', '::127.0.0.1',
      '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '::ffff:100.64.0.1', '::ffff:0.0.0.0',
      '64:ff9b::7f00:1',
    ]) expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '::ffff:808:808']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('leaves names to the lookup at connection time', () => {
    expect(isPrivateAddress('localhost')).toBe(false);
    expect(isPrivateAddress('example.com')).toBe(false);
  });
});

/** A loopback listener that counts the connections made to it, and answers nothing. */
async function connectionCounter(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => { count++; socket.destroy(); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('outbound requests without OUTBOUND_ALLOW_PRIVATE', () => {
  let h: Harness;
  let app: FastifyInstance;
  let listener: Awaited<ReturnType<typeof connectionCounter>>;
  const lines: string[] = [];
  const owner = { authorization: '' };

  beforeAll(async () => {
    h = await startHarness();
    expect(h.config.outboundAllowPrivate).toBe(false);
    listener = await connectionCounter();
    // The operations log through the context (a refused logout call is said there): an app of the harness's logging into `lines`.
    const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).trim().split('\n')); done(); } });
    const logger = pino({ level: 'info' }, sink) as unknown as FastifyBaseLogger;
    app = await buildApp({ ...h.ctx, log: logger, get db() { return h.ctx.db; } }, { logger });
    owner.authorization = `Bearer ${h.ownerToken}`;
  });
  afterAll(async () => {
    await listener?.close();
    await app?.close();
    await h?.close();
  });

  it('refuses every loopback, private and link-local spelling of an issuer with a 422 that says nothing of the target, and connects to none', async () => {
    const realm = await makeRealm(h);
    const put = (issuer: string) => h.request({
      method: 'PUT', url: `/api/admin/customers/${realm.uid}/identity_provider`,
      payload: { issuer, client_id: 'atrium', client_secret: 'a secret', button_label: 'Corporate ID' },
    });
    const port = listener.port;
    const spellings = [
      `https://127.0.0.1:${port}`, `http://localhost:${port}`, `https://localhost:${port}`, `https://[::1]:${port}`,
      `https://[::ffff:127.0.0.1]:${port}`, `https://[::ffff:7f00:1]:${port}`, `https://0x7f.1:${port}`, `https://2130706433:${port}`,
      `https://127.1:${port}`, `https://0.0.0.0:${port}`, `https://[::]:${port}`, `https://10.0.0.1:${port}`, `https://169.254.169.254`,
      `https://[::ffff:a9fe:a9fe]`, `https://100.64.0.1:${port}`, `https://192.168.0.1:${port}`, `https://[fe80::1]:${port}`, `http://127.0.0.1:${port}`,
    ];
    const told = new Set<string>();
    for (const issuer of spellings) {
      const res = await put(issuer);
      expect(res.statusCode, issuer).toBe(422);
      const [detail] = res.json().details;
      expect(detail.field, issuer).toBe('issuer');
      const message = detail.messages.join(' ');
      // Nothing of what happened there: no port, no errno, no status, no address it resolved to.
      expect(message, issuer).not.toMatch(new RegExp(`${port}|ECONN|EHOST|ENOTFOUND|refused|reset|timed out|status|127\\.0\\.0\\.1|resolves`, 'i'));
      told.add(message);
    }
    expect(listener.connections()).toBe(0);
    // Three answers in all: http refused, a private literal refused, and one reason for any discovery that failed.
    expect([...told].sort()).toEqual([
      'could not be discovered as an OpenID Connect provider: could not reach the issuer, or it answered no usable discovery document',
      'is in a private, loopback or link-local address range (allowed only with OUTBOUND_ALLOW_PRIVATE=1)',
      expect.stringMatching(/^must be an https address/),
    ]);
    // https://localhost resolves to loopback: refused at the lookup the connection would have used, in the generic words.
    expect((await put(`https://localhost:${port}`)).json().details[0].messages[0]).toMatch(/^could not be discovered/);
    expect((await put('http://login.example.com')).json().details[0].messages[0]).toMatch(/^must be an https address/);
    expect((await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/identity_provider` })).statusCode).toBe(404);
  });

  it('refuses a logout URL in a private range (422), and on sign-out calls none, not even one whose name resolves to loopback', async () => {
    const create = (logoutUrl: string) => app.inject({
      method: 'POST', url: '/api/admin/api_access/applications', headers: owner, payload: { name: 'Intranet', logout_url: logoutUrl },
    });
    const port = listener.port;
    for (const url of [`http://127.0.0.1:${port}/out`, `http://[::1]:${port}/out`, `http://[::ffff:127.0.0.1]:${port}/out`, `http://0x7f.1:${port}/out`,
      `http://2130706433:${port}/out`, 'http://169.254.169.254/latest/meta-data', `http://10.0.0.1:${port}/out`, `http://0.0.0.0:${port}/out`]) {
      const res = await create(url);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().details, url).toEqual([{ field: 'logout_url', messages: [expect.stringContaining('private, loopback or link-local')] }]);
    }
    const accepted = (await create('https://crm.example.com/logout')).json();
    const changed = await app.inject({
      method: 'PUT', url: `/api/admin/api_access/applications/${accepted.id}`, headers: owner, payload: { logout_url: `http://127.0.0.1:${port}/out` },
    });
    expect(changed.statusCode).toBe(422);
    await app.inject({ method: 'DELETE', url: `/api/admin/api_access/applications/${accepted.id}`, headers: owner });

    // A name is known only when called: accepted, then refused at the lookup.
    expect((await create(`http://localhost:${port}/by-name`)).statusCode).toBe(201);
    // An address stored before the rule (or written around it) is refused when called.
    await h.ctx.db.execute(sql`update api_applications set logout_url = ${`http://127.0.0.1:${port}/stored`} where name = 'Intranet'`);
    expect((await create(`http://localhost:${port}/by-name`)).statusCode).toBe(201);

    const session = await app.inject({ method: 'POST', url: '/api/admin/session', payload: { email: OWNER_EMAIL, password: OWNER_PASSWORD } });
    lines.length = 0;
    const out = await app.inject({
      method: 'DELETE', url: '/api/admin/session',
      headers: { cookie: `atrium_admin=${session.cookies[0].value}`, 'x-csrf-token': session.json().csrf_token },
    });
    expect(out.statusCode).toBe(204);
    const refusals = () => lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'sign-out call to an application failed');
    await expect.poll(() => refusals().length, { timeout: 10_000 }).toBe(2);
    expect(refusals().map((l) => l.logoutUrl).sort()).toEqual([`http://127.0.0.1:${port}/stored`, `http://localhost:${port}/by-name`]);
    for (const line of refusals()) expect(line.reason).toMatch(/^refused: /);
    expect(listener.connections()).toBe(0);
  });
});

describe('outbound requests with OUTBOUND_ALLOW_PRIVATE=1', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ OUTBOUND_ALLOW_PRIVATE: '1' }); });
  afterAll(async () => { await h?.close(); });

  it('calls a logout URL on loopback with a GET on sign-out', async () => {
    const received: string[] = [];
    const listener = http.createServer((req, res) => { received.push(`${req.method} ${req.url}`); res.end('ok'); });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/signed-out`;
      expect((await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Local', logout_url: url } })).statusCode).toBe(201);
      const { cookie, csrf } = await signIn(h, OWNER_EMAIL, OWNER_PASSWORD);
      expect((await h.request({ method: 'DELETE', url: '/api/admin/session', token: null, headers: { cookie, 'x-csrf-token': csrf } })).statusCode).toBe(204);
      await expect.poll(() => received, { timeout: 10_000 }).toEqual(['GET /signed-out']);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
