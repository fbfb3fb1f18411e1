import * as oauth from 'oauth4webapi';

/** A realm app: the OAuth client an admin registered in a realm, and where Atrium answers. */
export interface RealmApp {
  /** Where Atrium answers, e.g. `https://atrium.example.com`. */
  baseUrl: string;
  /** The realm's uid. */
  realm: string;
  /** The OAuth client's uid. */
  clientId: string;
  /** A confidential client's secret (a server app); leave it out for a public client (a browser or mobile app). */
  clientSecret?: string;
  /** The redirect URI registered for the client. */
  redirectUri: string;
  /** Allows `http://` (a development server); never set it in production. */
  allowHttp?: boolean;
  fetch?: typeof globalThis.fetch;
}

/** What the app keeps between sending the user to Atrium and the user coming back (a cookie, the session storage). */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
}

export type Tokens = oauth.TokenEndpointResponse;

const metadata = new Map<string, Promise<oauth.AuthorizationServer>>();

function requestOptions(app: RealmApp) {
  return {
    ...(app.allowHttp ? { [oauth.allowInsecureRequests]: true } : {}),
    ...(app.fetch ? { [oauth.customFetch]: app.fetch } : {}),
  };
}

/** The realm's RFC 8414 metadata (issuer `{baseUrl}/realms/{realm}`), read once per issuer. */
export function discover(app: RealmApp): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(`${app.baseUrl.replace(/\/+$/, '')}/realms/${encodeURIComponent(app.realm)}`);
  let known = metadata.get(issuer.href);
  if (!known) {
    known = oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...requestOptions(app) })
      .then((response) => oauth.processDiscoveryResponse(issuer, response));
    known.catch(() => metadata.delete(issuer.href));
    metadata.set(issuer.href, known);
  }
  return known;
}

const clientOf = (app: RealmApp): oauth.Client => ({ client_id: app.clientId });
const authOf = (app: RealmApp): oauth.ClientAuth => (app.clientSecret === undefined ? oauth.None() : oauth.ClientSecretBasic(app.clientSecret));

/**
 * Where to send the user to sign in: the realm's authorize endpoint with PKCE S256 and a random state.
 * Keep `pending` until the user comes back to the redirect URI.
 */
export async function startSignIn(app: RealmApp, options: { scope?: string } = {}): Promise<{ url: URL; pending: PendingSignIn }> {
  const server = await discover(app);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(server.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code', client_id: app.clientId, redirect_uri: app.redirectUri, state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256',
    ...(options.scope ? { scope: options.scope } : {}),
  }).toString();
  return { url, pending: { state, codeVerifier } };
}

/** Checks the redirect back (its state, or the error Atrium sent) and exchanges the code for tokens. */
export async function finishSignIn(app: RealmApp, callbackUrl: URL | string, pending: PendingSignIn): Promise<Tokens> {
  const server = await discover(app);
  const params = oauth.validateAuthResponse(server, clientOf(app), new URL(callbackUrl), pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    server, clientOf(app), authOf(app), params, app.redirectUri, pending.codeVerifier, requestOptions(app),
  );
  return oauth.processAuthorizationCodeResponse(server, clientOf(app), response);
}

/** Revokes an access token (RFC 7009): the user's session for this app ends. */
export async function revoke(app: RealmApp, token: string): Promise<void> {
  const server = await discover(app);
  await oauth.processRevocationResponse(await oauth.revocationRequest(server, clientOf(app), authOf(app), token, requestOptions(app)));
}

export { AuthorizationResponseError, ResponseBodyError } from 'oauth4webapi';
