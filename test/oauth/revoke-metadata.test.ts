import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from '../helpers/harness.js';
import { oauthAccessTokens } from '../../src/tables/oauth.js';
import { hashSecret } from '../../src/security/secrets.js';
import {
  basicAuth, createClient, createRealm, issueCode, postForm, REDIRECT, signedInUser, type ClientFixture,
} from './fixtures.js';

describe('revocation (RFC 7009) and metadata (RFC 8414)', () => {
  let h: Harness;
  let client: ClientFixture;
  let other: ClientFixture;
  let cookie: string;

  beforeAll(async () => {
    h = await startHarness();
    const bank = await createRealm(h, 'bank');
    await createRealm(h, 'branded', { customDomain: 'login.branded.test', pkcePlainAllowed: true });
    await createRealm(h, 'closed', { active: false });
    client = await createClient(h, 'bank');
    other = await createClient(h, 'bank');
    cookie = (await signedInUser(h, bank, 'ana@bank.test')).cookie;
  });
  afterAll(async () => { await h?.close(); });

  async function newToken(c = client): Promise<string> {
    const code = await issueCode(h, 'bank', c.uid, cookie);
    const res = await postForm(h, '/realms/bank/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: c.uid, client_secret: c.secret,
    });
    return res.json().access_token;
  }
  const revokedAt = async (token: string) =>
    (await h.ctx.db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.tokenHash, hashSecret(token))))[0].revokedAt;

  it('revokes the client\'s own token and answers 200', async () => {
    const token = await newToken();
    const res = await postForm(h, '/realms/bank/oauth/revoke', { token, token_type_hint: 'access_token', client_id: client.uid, client_secret: client.secret });
    expect(res.statusCode).toBe(200);
    expect(await revokedAt(token)).not.toBeNull();
    const again = await postForm(h, '/realms/bank/oauth/revoke', { token }, { authorization: basicAuth(client.uid, client.secret) });
    expect(again.statusCode).toBe(200);
  });

  it('answers 200 for unknown tokens and leaves other clients\' tokens alone', async () => {
    const unknown = await postForm(h, '/realms/bank/oauth/revoke', { token: 'never-issued', client_id: client.uid, client_secret: client.secret });
    expect(unknown.statusCode).toBe(200);
    const theirs = await newToken(other);
    const res = await postForm(h, '/realms/bank/oauth/revoke', { token: theirs, token_type_hint: 'refresh_token', client_id: client.uid, client_secret: client.secret });
    expect(res.statusCode).toBe(200);
    expect(await revokedAt(theirs)).toBeNull();
  });

  it('authenticates the client as the token endpoint does', async () => {
    const token = await newToken();
    const bad = await postForm(h, '/realms/bank/oauth/revoke', { token, client_id: client.uid, client_secret: 'wrong' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error).toBe('invalid_client');
    const basic = await postForm(h, '/realms/bank/oauth/revoke', { token }, { authorization: basicAuth(client.uid, 'wrong') });
    expect(basic.statusCode).toBe(401);
    expect(basic.headers['www-authenticate']).toMatch(/^Basic /);
    expect(await revokedAt(token)).toBeNull();
    const missing = await postForm(h, '/realms/bank/oauth/revoke', { client_id: client.uid, client_secret: client.secret });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('invalid_request');
  });

  it('lets a public client revoke its own token with its client_id alone', async () => {
    const mobile = await createClient(h, 'bank', { confidential: false });
    const token = await newToken(mobile);
    const res = await postForm(h, '/realms/bank/oauth/revoke', { token, client_id: mobile.uid });
    expect(res.statusCode).toBe(200);
    expect(await revokedAt(token)).not.toBeNull();
    const confidential = await newToken();
    expect((await postForm(h, '/realms/bank/oauth/revoke', { token: confidential, client_id: client.uid })).statusCode).toBe(401);
    expect(await revokedAt(confidential)).toBeNull();
  });

  it('publishes the metadata of each realm', async () => {
    const res = await h.request({ method: 'GET', url: '/.well-known/oauth-authorization-server/realms/bank', token: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      issuer: 'http://atrium.test/realms/bank',
      authorization_endpoint: 'http://atrium.test/realms/bank/oauth/authorize',
      token_endpoint: 'http://atrium.test/realms/bank/oauth/token',
      revocation_endpoint: 'http://atrium.test/realms/bank/oauth/revoke',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
      scopes_supported: ['public', 'admin'],
    });
    const branded = (await h.request({ method: 'GET', url: '/.well-known/oauth-authorization-server/realms/branded', token: null })).json();
    expect(branded.code_challenge_methods_supported).toEqual(['S256', 'plain']);
    expect(branded.authorization_endpoint).toBe('http://login.branded.test/realms/oauth/authorize');
    expect(branded.token_endpoint).toBe('http://atrium.test/realms/branded/oauth/token');
  });

  it('answers 404 for an unknown or inactive realm', async () => {
    for (const uid of ['nope', 'closed']) {
      const res = await h.request({ method: 'GET', url: `/.well-known/oauth-authorization-server/realms/${uid}`, token: null });
      expect(res.statusCode).toBe(404);
    }
  });
});
