import type { FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Context } from '../../context.js';
import { authorizationEndpointOf } from '../../oauth/metadata.js';
import { resolveRealmToken } from '../../oauth/credential.js';
import { s256Challenge } from '../../oauth/pkce.js';
import { exchangeCode } from '../../oauth/token.js';
import type { Customer } from '../../realms/credential.js';
import { findActiveRealm } from '../../realms/realms.js';
import { secureCookies } from '../../realms/session-cookie.js';
import { endRealmSession } from '../../realms/sessions.js';
import { secretsKey } from '../../security/secrets-key.js';
import { randomSecret, safeEqual } from '../../security/secrets.js';
import { seal, unseal } from '../../security/sealed.js';
import { oauthClients } from '../../tables/oauth.js';
import { sites } from '../../tables/sites.js';
import type { ServedSite } from '../serving.js';
import { siteCallbackUrl } from '../site-client.js';

/** The site's own session on its domain: the access token its OAuth client was given, tied to the realm session. */
const sessionCookie = (site: Pick<ServedSite, 'uid'>) => `atrium_site_${site.uid}`;
/** The sign-in under way: state, PKCE verifier and the page to come back to, sealed, for ten minutes. */
const FLOW_COOKIE = 'atrium_site_auth';
const SEALED_FOR = 'site-sign-in';
const FLOW_SECONDS = 600;

const cookieOptions = (ctx: Context) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure: secureCookies(ctx) });

/** The signed-in user of a request on the site's own domain, from the site's session cookie. */
export async function domainCustomer(ctx: Context, request: FastifyRequest, site: ServedSite): Promise<Customer | null> {
  const token = request.cookies[sessionCookie(site)];
  if (!token || !site.realmUid) return null;
  const found = await resolveRealmToken(ctx, site.realmUid, token);
  return found?.resolution && typeof found.resolution === 'object' ? found.resolution : null;
}

async function clientOf(ctx: Context, site: ServedSite): Promise<string | null> {
  const [row] = await ctx.db.select({ uid: oauthClients.uid }).from(sites).innerJoin(oauthClients, eq(oauthClients.id, sites.oauthClientId)).where(eq(sites.id, site.id));
  return row?.uid ?? null;
}

/**
 * Sends a visitor of a private page on the site's domain to its realm's authorization endpoint
 * (authorization code with PKCE, S256), to come back to `back`. False when the site cannot sign in.
 */
export async function startDomainSignIn(ctx: Context, reply: FastifyReply, site: ServedSite, back: string): Promise<boolean> {
  const realm = site.realmUid ? await findActiveRealm(ctx, site.realmUid) : undefined;
  const clientId = await clientOf(ctx, site);
  if (!realm || !clientId || !site.customDomain) return false;
  const state = randomSecret(16);
  const verifier = randomSecret(32);
  reply.setCookie(FLOW_COOKIE, seal(secretsKey(ctx.config), JSON.stringify({ state, verifier, back }), SEALED_FOR), { ...cookieOptions(ctx), maxAge: FLOW_SECONDS });
  const query = new URLSearchParams({
    response_type: 'code', client_id: clientId, redirect_uri: siteCallbackUrl(ctx, site.customDomain), scope: 'public', state,
    code_challenge: s256Challenge(verifier), code_challenge_method: 'S256',
  });
  reply.code(303).header('cache-control', 'private, no-store').redirect(`${authorizationEndpointOf(ctx, realm)}?${query}`, 303);
  return true;
}

function flowOf(ctx: Context, request: FastifyRequest): { state: string; verifier: string; back: string } | null {
  const sealed = request.cookies[FLOW_COOKIE];
  if (!sealed) return null;
  try {
    return JSON.parse(unseal(secretsKey(ctx.config), sealed, SEALED_FOR));
  } catch {
    return null;
  }
}

/**
 * `/_auth/callback`: the realm's answer. The state must be the one this browser was given; the code is
 * exchanged (in-process, as the site's public client with its verifier) for an access token, kept in the
 * site's session cookie. Answers the page to go back to, or null when the answer is not to be trusted.
 */
export async function finishDomainSignIn(ctx: Context, request: FastifyRequest, reply: FastifyReply, site: ServedSite): Promise<string | null> {
  const query = request.query as Record<string, unknown>;
  const flow = flowOf(ctx, request);
  reply.clearCookie(FLOW_COOKIE, cookieOptions(ctx));
  if (!flow || typeof query.state !== 'string' || typeof query.code !== 'string' || !safeEqual(query.state, flow.state)) return null;
  const clientId = await clientOf(ctx, site);
  if (!clientId || !site.realmUid || !site.customDomain) return null;
  try {
    const answer = await exchangeCode(ctx, site.realmUid, {
      grant_type: 'authorization_code', code: query.code, redirect_uri: siteCallbackUrl(ctx, site.customDomain), code_verifier: flow.verifier,
    }, () => ({ id: clientId, secret: undefined, basic: false }));
    reply.setCookie(sessionCookie(site), answer.access_token, cookieOptions(ctx));
  } catch {
    return null;
  }
  return /^\/(?!\/)/.test(flow.back) ? flow.back : '/';
}

/** Sign-out on the domain: the realm session behind the site's cookie ends (and its tokens with it). */
export async function endDomainSession(ctx: Context, request: FastifyRequest, reply: FastifyReply, site: ServedSite): Promise<void> {
  const customer = await domainCustomer(ctx, request, site);
  if (customer) await endRealmSession(ctx, customer.session.id);
  reply.clearCookie(sessionCookie(site), cookieOptions(ctx));
}
