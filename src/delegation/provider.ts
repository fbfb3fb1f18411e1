import type * as OpenIdClient from 'openid-client';
import type { Context } from '../context.js';
import { outboundFetch, OutboundFailure, targetProblem } from '../net/outbound.js';
import { seal, unseal } from '../security/sealed.js';
import { secretsKey } from '../security/secrets-key.js';
import { TtlCache } from '../ttl-cache.js';
import type { identityProviders } from '../tables/delegation.js';

let loaded: typeof OpenIdClient | undefined;

/** openid-client, loaded with the first use of an identity provider: a server whose realms delegate none never holds it. */
export async function openidClient(): Promise<typeof OpenIdClient> {
  return loaded ??= await import('openid-client');
}

/**
 * The relying party's side of a realm's identity provider, through openid-client: discovery, and a
 * Configuration per use whose notion of "now" is the injected clock (so ID token expiry follows it).
 */

export type IdentityProvider = typeof identityProviders.$inferSelect;

/** Seconds every request to the provider may take (discovery, token, userinfo, JWKS). */
const TIMEOUT_SECONDS = 10;
/** The largest answer read from the provider (a discovery document, a key set, a token answer). */
const MAX_ANSWER_BYTES = 256 * 1024;
/** The discovered metadata and the provider's keys are read again after this long. */
const METADATA_TTL_MS = 10 * 60_000;

/**
 * Why an issuer cannot be used, or null: https, no credentials, query or fragment, and not an address
 * in a private range (outbound.ts). http only with OUTBOUND_ALLOW_PRIVATE=1, the setting of a
 * development machine or a private network whose operator has opened such addresses: everywhere else
 * the provider's answers, which decide who signs in, travel over TLS.
 */
export function issuerProblem(issuer: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'must be an address such as https://login.example.com';
  }
  if (url.username || url.password || url.search || url.hash) return 'must not carry credentials, a query or a fragment';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) {
    return 'must be an https address (http is accepted only with OUTBOUND_ALLOW_PRIVATE=1, on a development machine or a private network)';
  }
  return targetProblem(issuer, allowPrivate);
}

const insecure = (issuer: string) => new URL(issuer).protocol === 'http:';

/** Every request of the relying party (discovery, JWKS, token, userinfo) goes through the outbound guard. */
const fetchOf = (ctx: Context) => outboundFetch(ctx.config.outboundAllowPrivate, { timeoutMs: TIMEOUT_SECONDS * 1000, maxBytes: MAX_ANSWER_BYTES });

/** The client secret is bound to its realm: copied to another realm's row it does not open. */
const secretContext = (realmId: number) => `identity_providers:${realmId}`;
export const sealClientSecret = (ctx: Context, realmId: number, secret: string) => seal(secretsKey(ctx.config), secret, secretContext(realmId));
const clientSecretOf = (ctx: Context, provider: IdentityProvider) => unseal(secretsKey(ctx.config), provider.sealedClientSecret, secretContext(provider.realmId));

/** Discovery's default is client_secret_basic (OpenID Connect Discovery 1.0, section 3). */
function authentication(client: typeof OpenIdClient, metadata: OpenIdClient.ServerMetadata, secret: string): OpenIdClient.ClientAuth {
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (!supported || supported.includes('client_secret_basic')) return client.ClientSecretBasic(secret);
  return client.ClientSecretPost(secret);
}

/**
 * OpenID discovery from the issuer (the metadata's `issuer` must be the same address). Throws when
 * the address cannot be reached or answers no usable OpenID provider metadata (reasonOf says why, for the log).
 */
export async function discover(ctx: Context, issuer: string, clientId: string): Promise<OpenIdClient.ServerMetadata> {
  const client = await openidClient();
  // The metadata is public: no client authentication is needed to read it.
  const config = await client.discovery(new URL(issuer), clientId, undefined, client.None(), {
    execute: insecure(issuer) ? [client.allowInsecureRequests] : [], timeout: TIMEOUT_SECONDS, [client.customFetch]: fetchOf(ctx),
  });
  const metadata = config.serverMetadata();
  if (!metadata.authorization_endpoint || !metadata.token_endpoint || !metadata.jwks_uri) {
    throw new Error('the metadata names no authorization endpoint, token endpoint or JWKS');
  }
  return { ...metadata };
}

interface Discovered {
  metadata: OpenIdClient.ServerMetadata;
  jwks?: OpenIdClient.ExportedJWKSCache;
}

const discovered = new WeakMap<Context, TtlCache<Discovered>>();

function cacheOf(ctx: Context): TtlCache<Discovered> {
  let cache = discovered.get(ctx);
  if (!cache) discovered.set(ctx, cache = new TtlCache<Discovered>(METADATA_TTL_MS, 1000));
  return cache;
}

// Any change of the provider (a PUT) changes updatedAt, and so the key: no stale configuration is used.
const keyOf = (provider: IdentityProvider) => `${provider.realmId}:${provider.updatedAt.getTime()}:${provider.issuer}`;

export interface ProviderSession {
  config: OpenIdClient.Configuration;
  /** Keeps the provider's keys fetched during this use for the next one. */
  done(): void;
}

/** A Configuration for one use (a sign-in, a refresh), seeing the injected clock's now. */
export async function configurationOf(ctx: Context, provider: IdentityProvider): Promise<ProviderSession> {
  const client = await openidClient();
  const cache = cacheOf(ctx);
  const key = keyOf(provider);
  const secret = clientSecretOf(ctx, provider);
  let entry = cache.get(key, ctx.clock.now());
  if (!entry) {
    entry = { metadata: await discover(ctx, provider.issuer, provider.clientId) };
    cache.set(key, entry, ctx.clock.now());
  }
  const skew = Math.round((ctx.clock.now().getTime() - Date.now()) / 1000);
  const config = new client.Configuration(entry.metadata, provider.clientId, { [client.clockSkew]: skew }, authentication(client, entry.metadata, secret));
  if (insecure(provider.issuer)) client.allowInsecureRequests(config);
  // By default an ID token from the token endpoint is trusted on TLS alone (OpenID Connect Core 3.1.3.7):
  // its signature is checked against the provider's JWKS here too.
  client.enableNonRepudiationChecks(config);
  config.timeout = TIMEOUT_SECONDS;
  config[client.customFetch] = fetchOf(ctx);
  if (entry.jwks) client.setJwksCache(config, entry.jwks);
  const kept = entry;
  return {
    config,
    done: () => {
      kept.jwks = client.getJwksCache(config) ?? kept.jwks;
    },
  };
}

/**
 * A short reason for the log, never for an answer (it would tell an admin what listens at an address):
 * never a token or secret (openid-client's messages hold none).
 */
export function reasonOf(err: unknown): string {
  const failure = err instanceof OutboundFailure ? err : (err as { cause?: unknown }).cause;
  if (failure instanceof OutboundFailure) return `could not reach the provider (${failure.kind}: ${failure.detail})`.slice(0, 300);
  // An error of openid-client's comes after it was loaded.
  if (loaded && (err instanceof loaded.ResponseBodyError || err instanceof loaded.AuthorizationResponseError)) {
    return `${err.error}${err.error_description ? `: ${err.error_description}` : ''}`;
  }
  const error = err as { message?: string; cause?: { code?: string; message?: string } };
  // openid-client's own errors say what failed in their cause (which claim, the signature); a network error its code.
  const cause = error.cause?.message ?? error.cause?.code;
  return `${error.message ?? String(err)}${cause ? ` (${cause})` : ''}`.slice(0, 300);
}
