import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, inputValue } from '../helpers/cookie-jar.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';
import { activationLinkIn, codeIn, type SmtpListener } from '../helpers/smtp.js';
import { formFields } from '../oauth/browse.js';
import { createClient, REDIRECT, type ClientFixture } from '../oauth/fixtures.js';

const insecure = { [oauth.allowInsecureRequests]: true };
const PASSWORD = 'a long secret 1';

/**
 * An OAuth client (oauth4webapi) sends the browser to the realm's authorize endpoint; the browser goes
 * through a sign-in journey other than the password (a code by email, a sign-up, an activation link)
 * and must come back to the client with a code that the token endpoint exchanges.
 */
describe('sign-in journeys resume the OAuth authorize flow', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let base: string;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    base = await listen(h);
  });
  afterAll(async () => { await h?.close(); });

  interface Journey {
    jar: CookieJar;
    realmUid: string;
    registered: ClientFixture;
    as: oauth.AuthorizationServer;
    client: oauth.Client;
    state: string;
    verifier: string;
    /** The authorize request, as the browser is sent to it. */
    authorize: URL;
  }

  /** A realm in that mode with a client, and a browser at the realm's login page where authorize sent it. */
  async function startJourney(mode: string): Promise<{ journey: Journey; loginPage: string }> {
    const realm = await makeRealm(h, { settings: { activation_mode: mode } });
    const registered = await createClient(h, realm.uid, { scopes: ['public'] });
    const issuer = new URL(`${base}/realms/${realm.uid}`);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const client: oauth.Client = { client_id: registered.uid };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL(as.authorization_endpoint!);
    authorize.search = new URLSearchParams({
      response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'public', state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    }).toString();
    const jar = new CookieJar(base);
    const first = await jar.fetch(authorize.toString());
    expect(first.status).toBe(302);
    const login = new URL(first.headers.get('location')!, base);
    expect(login.pathname).toBe(`/realms/${realm.uid}/login`);
    const page = await jar.fetch(login.pathname + login.search);
    expect(page.status).toBe(200);
    return { journey: { jar, realmUid: realm.uid, registered, as, client, state, verifier, authorize }, loginPage: await page.text() };
  }

  /** The href of a page's link by its text, entities decoded. */
  const linkHref = (page: string, text: string) => {
    const href = new RegExp(`<a href="([^"]*)">${text}</a>`).exec(page)?.[1];
    if (!href) throw new Error(`no link "${text}" in:\n${page}`);
    return href.replace(/&amp;/g, '&');
  };
  /** The redirect_uri a page address carries. */
  const carried = (href: string) => new URL(href, base).searchParams.get('redirect_uri');

  /** From an answer that sends the browser back to authorize: authorize, the client's callback, the token exchange, GET /me. */
  async function finish(journey: Journey, answer: Response, email: string) {
    expect(answer.status).toBe(303);
    const resumed = new URL(answer.headers.get('location')!, base);
    expect(resumed.toString()).toBe(journey.authorize.toString());
    const back = await journey.jar.fetch(resumed.toString());
    expect(back.status).toBe(302);
    const callback = new URL(back.headers.get('location')!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe(journey.state);
    const params = oauth.validateAuthResponse(journey.as, journey.client, callback, journey.state);
    const response = await oauth.authorizationCodeGrantRequest(
      journey.as, journey.client, oauth.ClientSecretPost(journey.registered.secret), params, REDIRECT, journey.verifier, insecure,
    );
    const token = await oauth.processAuthorizationCodeResponse(journey.as, journey.client, response);
    expect(token.token_type).toBe('bearer');
    const me = await oauth.protectedResourceRequest(token.access_token, 'GET', new URL(`${base}/api/customers/realms/${journey.realmUid}/me`), undefined, undefined, insecure);
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(email);
  }

  it('by a code sent by email: login page → otp_login → code mailed → otp_code → back at the client with a code', async () => {
    const { journey, loginPage } = await startJourney('direct');
    await makeRealmUser(h, journey.realmUid, { email: 'coded@example.com' });
    const otpLink = linkHref(loginPage, 'Sign in with a code sent by email');
    expect(new URL(otpLink, base).pathname).toBe(`/realms/${journey.realmUid}/otp_login`);
    expect(carried(otpLink)).toBe(journey.authorize.pathname + journey.authorize.search);
    const { jar } = journey;
    const request = await jar.fetch(otpLink);
    const requestForm = formFields(await request.text());
    expect(requestForm.redirect_uri).toBe(carried(otpLink));
    const sent = await jar.post(`/realms/${journey.realmUid}/otp_login`, { ...requestForm, identifier: 'coded@example.com' });
    expect(sent.status).toBe(303);
    const codePath = sent.headers.get('location')!;
    expect(carried(codePath)).toBe(carried(otpLink));
    const codePage = await (await jar.fetch(codePath)).text();
    const code = codeIn(await smtp.next('coded@example.com'));
    const signedIn = await jar.post(`/realms/${journey.realmUid}/otp_code`, { ...formFields(codePage), code });
    await finish(journey, signedIn, 'coded@example.com');
  });

  it('by a direct sign-up: login page → signup → signed in → back at the client with a code', async () => {
    const { journey, loginPage } = await startJourney('direct');
    const signUpLink = linkHref(loginPage, 'Create an account');
    const page = await (await journey.jar.fetch(signUpLink)).text();
    expect(inputValue(page, 'redirect_uri')).toBe(carried(signUpLink));
    const created = await journey.jar.post(`/realms/${journey.realmUid}/signup`, { ...formFields(page), email: 'joined@example.com', password: PASSWORD });
    await finish(journey, created, 'joined@example.com');
  });

  it('by an activation_email sign-up: signup → link mailed → confirm → signed in → back at the client with a code', async () => {
    const { journey, loginPage } = await startJourney('activation_email');
    const page = await (await journey.jar.fetch(linkHref(loginPage, 'Create an account'))).text();
    const answered = await journey.jar.post(`/realms/${journey.realmUid}/signup`, { ...formFields(page), email: 'confirmed@example.com', password: PASSWORD });
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('Check your email');
    const link = activationLinkIn(await smtp.next('confirmed@example.com'));
    const confirm = await (await journey.jar.fetch(link)).text();
    const activated = await journey.jar.post(link, formFields(confirm));
    await finish(journey, activated, 'confirmed@example.com');
  });
});
