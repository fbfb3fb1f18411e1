import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AtriumApiError, createAdminClient, createContentClient, createCustomersClient, createProfileClient, GrantExpiredError, pages,
  RealmNotFoundError, UserSessionError, type AdminClient,
} from '@atrium/client';
import { finishSignIn, revoke, startSignIn, type RealmApp } from '@atrium/client/oauth';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';
import { browse, CookieJar } from '../oauth/browse.js';

const REDIRECT = 'https://app.example/callback';
const ANA = { username: 'ana@bank.test', password: 'a long enough password' };

/** The happy path of each catalog through @atrium/client (the built package), against a real server on a loopback port. */
describe('@atrium/client against a running server', () => {
  let h: Harness;
  let base: string;
  let admin: AdminClient;

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    admin = createAdminClient({ baseUrl: base, token: h.ownerToken });
  });
  afterAll(async () => { await h?.close(); });

  /** A realm with a confidential and a public OAuth client and a user, made through the admin client. */
  async function realmWithApps(uid: string) {
    const { data: realm } = await admin.POST('/realms', { body: { uid, name: 'Bank' } });
    expect(realm?.uid).toBe(uid);
    const app = async (confidential: boolean) => (await admin.POST('/customers/{realm_uid}/oauth_clients', {
      params: { path: { realm_uid: uid } }, body: { name: 'App', redirect_uris: [REDIRECT], confidential },
    })).data!;
    const server = await app(true);
    const browser = await app(false);
    const { data: user } = await admin.POST('/customers/{realm_uid}/users', {
      params: { path: { realm_uid: uid } }, body: { email: ANA.username, password: ANA.password, first_name: 'Ana', last_name: 'Test' },
    });
    return { server, browser, userId: user!.id };
  }

  /** Signs Ana in through the realm's own login page, as a browser with a cookie jar would. */
  async function signIn(app: RealmApp) {
    const { url, pending } = await startSignIn(app, { scope: 'public' });
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await browse(new CookieJar(base), url.toString(), ANA, REDIRECT);
    return finishSignIn(app, callback, pending);
  }

  it('admin and customers: a realm, its apps and a user; sign-in as a server app and as a browser app; /me and /events; revoke', async () => {
    const { server, browser } = await realmWithApps('client-bank');
    const serverApp: RealmApp = { baseUrl: base, realm: 'client-bank', clientId: server.uid, clientSecret: server.secret!, redirectUri: REDIRECT, allowHttp: true };
    const browserApp: RealmApp = { baseUrl: base, realm: 'client-bank', clientId: browser.uid, redirectUri: REDIRECT, allowHttp: true };

    for (const app of [serverApp, browserApp]) {
      const tokens = await signIn(app);
      const customers = createCustomersClient({ baseUrl: base, realm: 'client-bank', token: tokens.access_token });
      const { data: me } = await customers.GET('/me');
      expect(me?.email).toBe(ANA.username);
      const { data: events } = await customers.GET('/events');
      expect(Array.isArray(events?.events)).toBe(true);

      await revoke(app, tokens.access_token);
      const error = await customers.GET('/me').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GrantExpiredError);
      expect((error as GrantExpiredError).body).toEqual({ error: { grant_expired: 'session expired' } });
    }
  });

  it('profile: the signed-in user and their sessions', async () => {
    const { server } = await realmWithApps('client-profile');
    const tokens = await signIn({ baseUrl: base, realm: 'client-profile', clientId: server.uid, clientSecret: server.secret!, redirectUri: REDIRECT, allowHttp: true });
    const profile = createProfileClient({ baseUrl: base, token: tokens.access_token });
    expect((await profile.GET('/me')).data?.email).toBe(ANA.username);
    expect((await profile.GET('/sessions')).response.status).toBe(200);
  });

  it('content: published entries of a type through the delivery API', async () => {
    const space = 'client-space';
    await admin.POST('/content/spaces', { body: { uid: space, name: 'Magazine', default_locale: 'en', locales: ['en'] } });
    await admin.POST('/content/spaces/{space_uid}/types', {
      params: { path: { space_uid: space } }, body: { uid: 'article', name: 'Article', fields: [{ name: 'title', type: 'text' }] },
    });
    const path = { space_uid: space, type_uid: 'article' };
    const { data: entry } = await admin.POST('/content/spaces/{space_uid}/types/{type_uid}/entries', {
      params: { path }, body: { name: 'Hello', slug: 'hello', locale: 'en', fields: { title: 'Hello' } },
    });
    await admin.POST('/content/spaces/{space_uid}/types/{type_uid}/entries/{uuid}/publish', { params: { path: { ...path, uuid: entry!.meta.uuid } }, body: {} });

    const content = createContentClient({ baseUrl: base });
    const { data } = await content.GET('/spaces/{space_uid}/types/{type_uid}/entries', { params: { path } });
    expect(data?.entries.map((e) => e.fields?.title)).toEqual(['Hello']);
  });

  it('pages walks every page of a list', async () => {
    const { data: realm } = await admin.POST('/realms', { body: { uid: 'client-pages', name: 'Pages' } });
    for (let i = 0; i < 7; i++) {
      await admin.POST('/customers/{realm_uid}/users', { params: { path: { realm_uid: realm!.uid } }, body: { email: `u${i}@pages.test` } });
    }
    const emails: string[] = [];
    for await (const user of pages((page) => admin.GET('/customers/{realm_uid}/users', {
      params: { path: { realm_uid: 'client-pages' }, query: { page, per_page: '3' } },
    }))) emails.push(user.email);
    expect(emails.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `u${i}@pages.test`));
  });

  it('errors surface as the typed errors of each catalog', async () => {
    const refused = await admin.POST('/realms', { body: { uid: 'Not a uid!', name: '' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AtriumApiError);
    expect((refused as AtriumApiError).status).toBe(422);
    expect((refused as AtriumApiError).body.errors.length).toBeGreaterThan(0);

    const stranger = createAdminClient({ baseUrl: base, token: 'not-a-token' });
    expect(await stranger.GET('/realms').catch((e: unknown) => (e as AtriumApiError).status)).toBe(401);

    await admin.POST('/realms', { body: { uid: 'client-errors', name: 'Errors' } });
    const unknownToken = createCustomersClient({ baseUrl: base, realm: 'client-errors', token: 'no-such-token' });
    expect(await unknownToken.GET('/me').catch((e: unknown) => e)).toBeInstanceOf(UserSessionError);
    const noRealm = createCustomersClient({ baseUrl: base, realm: 'no-such-realm', token: 'x' });
    expect(await noRealm.GET('/me').catch((e: unknown) => e)).toBeInstanceOf(RealmNotFoundError);
  });
});
