import pg from 'pg';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browse, CookieJar, formFields } from '../test/oauth/browse.js';
import { codeIn } from '../test/helpers/smtp.js';
import { startReceiver, type Receiver } from '../test/webhooks/receiver.js';
import { startCluster, until, type Cluster } from './cluster.js';

const insecure = { [oauth.allowInsecureRequests]: true };
const PASSWORD = 'a long scale user password';
const RECIPIENTS = 20_000;

// The same guarantees from two processes behind a proxy and from one `atrium serve` with WORKERS=2 (node:cluster).
const LAYOUTS: { name: string; instances: number; env: Record<string, string> }[] = [
  { name: 'two Atrium processes on one PostgreSQL behind a round-robin proxy', instances: 2, env: {} },
  { name: 'one atrium serve with WORKERS=2 on PostgreSQL', instances: 1, env: { WORKERS: '2' } },
];

describe.each(LAYOUTS)('$name', ({ instances, env }) => {
  let c: Cluster;
  let receiver: Receiver;
  let db: pg.Client;
  // The instance a session or code comes from, and the one it is used on (the same port, another worker, under WORKERS).
  const [a, b] = [0, instances - 1];
  beforeAll(async () => {
    c = await startCluster(instances, env);
    receiver = await startReceiver(null);
    db = new pg.Client({ connectionString: c.databaseUrl });
    await db.connect();
    expect((await c.api('POST', '/api/admin/realms', { uid: 'scale', name: 'Scale' })).status).toBe(201);
  });
  afterAll(async () => { await db?.end(); await receiver?.close(); await c?.close(); });

  const makeUser = async (email: string) => {
    const res = await c.api('POST', '/api/admin/customers/scale/users', { email, password: PASSWORD, first_name: 'Ana' });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json as { id: number; email: string };
  };

  it('ran the migrations once and created the owner once though both started together on an empty database', async () => {
    const outputs = c.instances.map((one) => one.output());
    expect(outputs.join('\n').match(/First start/g)).toHaveLength(1);
    const { rows } = await db.query('select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((row) => row.n === 1)).toBe(true);
    const answered = await Promise.all(Array.from({ length: 20 }, () => fetch(`${c.proxy.url}/healthz`).then((res) => res.headers.get('x-atrium-upstream'))));
    expect(new Set(answered)).toEqual(new Set(c.instances.map((one) => one.name)));
  });

  it('a realm session started on one instance and an OAuth token obtained on it both work on the other', async () => {
    const user = await makeUser('session@scale.test');
    const jar = new CookieJar(c.instances[a].url);
    const page = await jar.fetch('/realms/scale/login');
    const signedIn = await jar.post('/realms/scale/login', { ...formFields(await page.text()), username: user.email, password: PASSWORD });
    expect(signedIn.status).toBe(303);
    const cookie = jar.header('/api/profile/me');
    const me = await fetch(`${c.instances[b].url}/api/profile/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(user.email);

    const client = (await c.api('POST', '/api/admin/customers/scale/oauth_clients', { name: 'App', redirect_uris: ['https://app.example/callback'] })).json;
    const issuer = new URL(`${c.proxy.url}/realms/scale`);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const pinned = (endpoint: string | undefined, to: number) => { const url = new URL(endpoint!); url.host = new URL(c.instances[to].url).host; return url.toString(); };
    const verifier = oauth.generateRandomCodeVerifier();
    const authorize = new URL(pinned(as.authorization_endpoint, a));
    authorize.search = new URLSearchParams({
      response_type: 'code', client_id: client.uid, redirect_uri: 'https://app.example/callback',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    }).toString();
    const callback = await browse(jar, authorize.toString(), { username: user.email, password: PASSWORD }, 'https://app.example/callback');
    const oauthClient = { client_id: client.uid };
    const params = oauth.validateAuthResponse(as, oauthClient, callback);
    // The code issued by one instance is exchanged at the other, and the token read at the first.
    const response = await oauth.authorizationCodeGrantRequest({ ...as, token_endpoint: pinned(as.token_endpoint, b) }, oauthClient,
      oauth.ClientSecretPost(client.secret), params, 'https://app.example/callback', verifier, insecure);
    const token = (await oauth.processAuthorizationCodeResponse(as, oauthClient, response)).access_token;
    const viaA = await fetch(`${c.instances[a].url}/api/customers/realms/scale/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(viaA.status).toBe(200);
    expect((await viaA.json()).email).toBe(user.email);
  });

  it('an OTP lock reached on one instance holds on the other, the right code included', async () => {
    const user = await makeUser('otp@scale.test');
    const jar = new CookieJar(c.instances[a].url);
    const page = await jar.fetch('/realms/scale/otp_login');
    const sent = await jar.post('/realms/scale/otp_login', { ...formFields(await page.text()), identifier: user.email });
    expect([302, 303]).toContain(sent.status);
    const code = codeIn(await c.smtp.next(user.email));
    const verify = (on: number, guess: string) => c.api('POST', '/api/customers/realms/scale/verify_otp_code', { identifier: user.email, code: guess }, { base: c.instances[on].url, token: null });
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify(a, wrong)));
    expect(answers.map((res) => res.status).sort()).toEqual([409, 409, 409, 409, 409, 429, 429, 429]);
    expect((await verify(b, code)).status).toBe(429);
  });

  it(`shares a campaign of ${RECIPIENTS.toLocaleString('en')} recipients between both: every recipient gets exactly one message`, async () => {
    expect((await c.api('POST', '/api/admin/realms', { uid: 'bulk', name: 'Bulk' })).status).toBe(201);
    await db.query(`insert into realm_users (realm_id, email, first_name)
      select r.id, 'bulk-' || n || '@scale.test', 'Bulk' from realms r, generate_series(1, ${RECIPIENTS}) n where r.uid = 'bulk'`);
    const campaign = (await c.api('POST', '/api/admin/messaging/campaigns', { realm_uid: 'bulk', name: 'Everyone', type: 'mailing', subject: 'Hi {{ user.first_name }}', body: '<p>Hello</p>' })).json;
    const before = c.smtp.received.length;
    const delivery = (await c.api('POST', `/api/admin/messaging/campaigns/${campaign.id}/deliveries`, {})).json;
    await until(async () => (await c.api('GET', `/api/admin/messaging/campaigns/${campaign.id}/deliveries/${delivery.id}`)).json.status === 'completed', 'the delivery to complete', 240_000);
    const done = (await c.api('GET', `/api/admin/messaging/campaigns/${campaign.id}/deliveries/${delivery.id}`)).json;
    expect(done).toMatchObject({ reach: RECIPIENTS, sent_count: RECIPIENTS, failed_count: 0, in_doubt_count: 0 });
    await until(() => c.smtp.received.length - before >= RECIPIENTS, 'every mail at the SMTP listener', 30_000);
    const mails = c.smtp.received.slice(before);
    expect(mails).toHaveLength(RECIPIENTS);
    expect(new Set(mails.map((mail) => mail.to[0])).size).toBe(RECIPIENTS);
    // Both server processes sent a share: the worker stored on each message names its process.
    const { rows } = await db.query('select split_part(worker, \':\', 2)::int as pid, count(*)::int as n from message_deliveries where delivery_id = $1 group by 1', [delivery.id]);
    expect(rows).toHaveLength(2);
    if (instances === 2) expect(rows.map((row) => row.pid).sort()).toEqual(c.instances.map((one) => one.pid()).sort());
    for (const row of rows) expect(row.n, `process ${row.pid}`).toBeGreaterThan(RECIPIENTS / 10);
  });

  it('sends each webhook delivery once, whichever instance made the event', async () => {
    const endpoint = (await c.api('POST', '/api/admin/webhooks', { url: `${receiver.url}/hook`, event_types: ['realm_user.created'] })).json;
    receiver.secrets.push(endpoint.secret);
    const emails = Array.from({ length: 60 }, (_, i) => `hook-${i}@scale.test`);
    await Promise.all(emails.map((email) => makeUser(email)));
    await until(() => receiver.received.length >= emails.length, 'every webhook', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const created = receiver.received.map((one) => JSON.parse(one.body).data.email as string).filter((email) => email.startsWith('hook-'));
    expect(created.sort()).toEqual([...emails].sort());
    expect(new Set(receiver.received.map((one) => one.id)).size).toBe(receiver.received.length);
    expect(receiver.received.every((one) => one.verifiedWith.length === 1)).toBe(true);
  });

  it('serves a file uploaded through one instance from the other (shared S3-compatible storage)', async () => {
    const user = await makeUser('avatar@scale.test');
    // A real 1 × 1 image: the upload makes its renditions from it.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'a.png');
    const uploaded = await fetch(`${c.instances[a].url}/api/admin/customers/scale/users/${user.id}/avatar`, { method: 'PUT', headers: { authorization: `Bearer ${c.token}` }, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBeLessThan(300);
    const shown = (await c.api('GET', `/api/admin/customers/scale/users/${user.id}`, undefined, { base: c.instances[b].url })).json;
    const avatarPath = shown.avatar.url_original as string;
    const served = await fetch(`${c.instances[b].url}${avatarPath}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect(c.s3.keys().some((key) => avatarPath.endsWith(key.split('/').pop()!))).toBe(true);
    const small = await fetch(`${c.instances[b].url}${shown.avatar.url_small as string}`);
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toBe('image/webp');
  });
});
