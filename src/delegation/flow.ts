import type { Context } from '../context.js';
import type { Realm } from '../realms/realms.js';
import { seal, unseal } from '../security/sealed.js';
import { secretsKey } from '../security/secrets-key.js';
import { safeEqual } from '../security/secrets.js';
import { configurationOf, openidClient, reasonOf, type IdentityProvider } from './provider.js';

/**
 * The authorization code flow with a realm's provider (PKCE S256, state, nonce). Between the start
 * and the callback the flow lives only in the browser that started it: a sealed, HttpOnly cookie
 * valid ten minutes, bound to the realm; the callback that ends it is taken once (accounts.ts).
 */

export const FLOW_COOKIE = 'atrium_delegation';
export const FLOW_MINUTES = 10;

export interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  /** Where the browser goes once signed in (already judged safe). */
  redirectUri: string | null;
  /** The provider's issuer when the flow started: a provider changed meanwhile ends it. */
  issuer: string;
  /** The redirect_uri sent to the provider, which the token request repeats. */
  callbackUrl: string;
  expiresAt: number;
}

const flowContext = (realm: Realm) => `delegated_login:${realm.id}`;

export function sealFlow(ctx: Context, realm: Realm, flow: Flow): string {
  return seal(secretsKey(ctx.config), JSON.stringify(flow), flowContext(realm));
}

/** The flow a cookie holds, or null when there is none, it was sealed for another realm, tampered with or has expired. */
export function openFlow(ctx: Context, realm: Realm, cookie: string | undefined): Flow | null {
  if (!cookie) return null;
  try {
    const flow = JSON.parse(unseal(secretsKey(ctx.config), cookie, flowContext(realm))) as Flow;
    return flow.expiresAt > ctx.clock.now().getTime() ? flow : null;
  } catch {
    return null;
  }
}

/** A new flow and the provider's authorization address that starts it. */
export async function startFlow(ctx: Context, provider: IdentityProvider, callbackUrl: string, redirectUri: string | null): Promise<{ flow: Flow; location: string }> {
  const { config } = await configurationOf(ctx, provider);
  const client = await openidClient();
  const flow: Flow = {
    state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(),
    redirectUri, issuer: provider.issuer, callbackUrl, expiresAt: ctx.clock.now().getTime() + FLOW_MINUTES * 60_000,
  };
  const location = client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl,
    scope: provider.scopes.join(' '),
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
  });
  return { flow, location: location.href };
}

export const stateMatches = (flow: Flow, state: unknown) => typeof state === 'string' && safeEqual(flow.state, state);

/** Claims of the signed-in account at the provider: the ID token's, completed by the userinfo answer. */
export type Claims = Record<string, unknown> & { sub: string };

export interface ProviderTokens {
  accessToken: string;
  /** Seconds, as the provider said; undefined when it did not. */
  expiresIn: number | undefined;
  refreshToken: string | undefined;
}

export type Exchange = { ok: true; claims: Claims; tokens: ProviderTokens } | { ok: false; reason: string };

/**
 * Exchanges the callback's code. openid-client checks the answer (state, `iss`), sends the PKCE
 * verifier, and validates the ID token: signature by the provider's JWKS, issuer, audience, nonce,
 * expiry (on the injected clock). Any failure is `ok: false` with the reason to log.
 */
export async function exchange(ctx: Context, provider: IdentityProvider, flow: Flow, query: string): Promise<Exchange> {
  try {
    const { config, done } = await configurationOf(ctx, provider);
    const client = await openidClient();
    const current = new URL(flow.callbackUrl);
    current.search = query;
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true,
    });
    const idClaims = tokens.claims()!;
    const userinfo = config.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)
      : {};
    done();
    return {
      ok: true,
      // The signed ID token's claims win over the userinfo answer's.
      claims: { ...userinfo, ...idClaims } as Claims,
      tokens: { accessToken: tokens.access_token, expiresIn: tokens.expires_in, refreshToken: tokens.refresh_token },
    };
  } catch (err) {
    return { ok: false, reason: reasonOf(err) };
  }
}
