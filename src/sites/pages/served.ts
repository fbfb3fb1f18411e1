import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { tellApplicationsOfSignOut } from '../../admin-auth/sessions.js';
import { resolveSession, type Customer } from '../../realms/credential.js';
import { findActiveRealm, hostOf } from '../../realms/realms.js';
import { secureCookies } from '../../realms/session-cookie.js';
import { realmCookieName } from '../../realms/sessions.js';
import { signOut } from '../../realms/sign-in.js';
import { csrfMatches, CSRF_FIELD, issueCsrfToken } from '../../shared/html/csrf.js';
import { ifNoneMatchHits } from '../../http/etag.js';
import { escapeHtml } from '../../shared/html/markup.js';
import { checkPreview } from '../preview.js';
import { CompiledSite } from '../published.js';
import { cachedPage, compiledVersion, keptPage, keptServedSite, keptVersion, renderPage, servedSite, siteOfDomain, type RenderedPage, type ServedSite } from '../serving.js';
import { draftSnapshot, EMPTY_SNAPSHOT, type SnapshotPage } from '../snapshot.js';
import { domainCustomer, endDomainSession, finishDomainSignIn, startDomainSignIn } from './domain-sign-in.js';

const Params = Type.Object({ site_uid: Type.String({ maxLength: 100 }), '*': Type.Optional(Type.String()) });
const LogoutForm = Type.Object({ csrf_token: Type.Optional(Type.String()) });
const hide = { hide: true };

const PUBLIC_CACHE = 'public, max-age=0, must-revalidate';
const PRIVATE = 'private, no-store';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const plain = (reply: FastifyReply, status: number, text: string) =>
  reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store')
    .send(`<!doctype html><html><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escapeHtml(text)}</title></head><body><h1>${escapeHtml(text)}</h1></body></html>`);

/** The site's addresses start here: `/sites/{uid}` under the base address, nothing on its own domain. */
const rootOf = (request: FastifyRequest, site: ServedSite) => (onOwnDomain(request, site) ? '' : `/sites/${site.uid}`);

function sendHtml(request: FastifyRequest, reply: FastifyReply, status: number, page: RenderedPage, cacheControl: string) {
  reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', cacheControl).header('etag', page.etag);
  if (status === 200 && ifNoneMatchHits(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
  return reply.code(status).send(page.body);
}

/** A page with no address in the version: the site's `not_found` layout when it has one, else a plain page. */
async function notFoundPage(ctx: Context, request: FastifyRequest, reply: FastifyReply, site: ServedSite, version: CompiledSite | null, locale: string) {
  if (!version?.layout('not_found')) return plain(reply, 404, 'Page not found');
  const page: SnapshotPage = { id: 0, parentId: null, position: 0, layout: 'not_found', visibility: 'public', locales: { [site.defaultLocale]: { title: 'Page not found', description: '', slug: '' } }, blocks: [] };
  try {
    return sendHtml(request, reply, 404, await renderPage(ctx, site, version, page, locale, rootOf(request, site), null), PRIVATE);
  } catch {
    return plain(reply, 404, 'Page not found');
  }
}

/** A page that cannot be rendered within its limits: a short page telling so, never a stack trace or a 500. */
function fallback(ctx: Context, reply: FastifyReply, site: ServedSite, err: unknown) {
  ctx.log.warn({ site: site.uid, reason: (err as Error).message }, 'a site page could not be rendered');
  return plain(reply.header('retry-after', '60'), 503, 'This page cannot be shown right now');
}

const onOwnDomain = (request: FastifyRequest, site: ServedSite) => Boolean(site.customDomain && hostOf(request) === site.customDomain);

async function customerOf(ctx: Context, request: FastifyRequest, site: ServedSite): Promise<Customer | null> {
  if (!site.realmUid) return null;
  if (onOwnDomain(request, site)) return domainCustomer(ctx, request, site);
  const cookie = request.cookies[realmCookieName(site.realmUid)];
  if (!cookie) return null;
  const found = await resolveSession(ctx, site.realmUid, cookie);
  return typeof found?.resolution === 'object' ? found.resolution : null;
}

async function servePage(ctx: Context, request: FastifyRequest, reply: FastifyReply, site: ServedSite, version: CompiledSite, path: string) {
  const root = rootOf(request, site);
  const found = version.find(path);
  if (found.kind === 'redirect') return reply.code(301).header('cache-control', PUBLIC_CACHE).redirect(`${root}${version.paths.get(found.pageId)![found.locale]}`, 301);
  if (found.kind === 'none') return notFoundPage(ctx, request, reply, site, version, found.locale);
  const { page, locale } = found;
  try {
    if (page.visibility === 'public' && !version.readsUser(page.id)) {
      return sendHtml(request, reply, 200, keptPage(ctx, version, page, locale, root) ?? await cachedPage(ctx, site, version, page, locale, root), PUBLIC_CACHE);
    }
    const customer = await customerOf(ctx, request, site);
    if (page.visibility === 'realm_users' && !customer) {
      if (!site.realmUid) return notFoundPage(ctx, request, reply, site, version, locale);
      const back = `${root}${path}`;
      if (onOwnDomain(request, site)) return await startDomainSignIn(ctx, reply, site, back) ? reply : notFoundPage(ctx, request, reply, site, version, locale);
      return reply.code(303).header('cache-control', PRIVATE)
        .redirect(`/realms/${encodeURIComponent(site.realmUid)}/login?${new URLSearchParams({ redirect_uri: back })}`, 303);
    }
    return sendHtml(request, reply, 200, await renderPage(ctx, site, version, page, locale, root, customer), PRIVATE);
  } catch (err) {
    return fallback(ctx, reply, site, err);
  }
}

function sitemap(request: FastifyRequest, reply: FastifyReply, site: ServedSite, version: CompiledSite, origin: string) {
  const root = rootOf(request, site);
  const urls = version.publicPaths().map(({ path }) => `<url><loc>${escapeHtml(`${origin}${root}${path}`)}</loc></url>`).join('');
  return reply.header('content-type', 'application/xml; charset=utf-8').header('cache-control', PUBLIC_CACHE)
    .send(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
}

async function preview(ctx: Context, request: FastifyRequest, reply: FastifyReply, site: ServedSite, token: string) {
  const check = checkPreview(ctx, token);
  if (check.kind === 'invalid' || check.siteId !== site.id) return plain(reply, 404, 'Page not found');
  if (check.kind === 'expired') return plain(reply, 410, 'This preview link has expired');
  // The drafts compiled for this one answer, never kept: they change with every save.
  const version = new CompiledSite(0, await draftSnapshot(ctx, site.id, site, EMPTY_SNAPSHOT), site);
  const page = version.snapshot.pages.find((p) => p.id === check.pageId);
  if (!page) return plain(reply, 404, 'Page not found');
  try {
    const rendered = await renderPage(ctx, site, version, page, check.locale, rootOf(request, site), await customerOf(ctx, request, site));
    return sendHtml(request, reply.header('x-robots-tag', 'noindex'), 200, rendered, PRIVATE);
  } catch (err) {
    return fallback(ctx, reply, site, err);
  }
}

function logoutPage(ctx: Context, request: FastifyRequest, reply: FastifyReply, site: ServedSite) {
  if (!site.realmUid) return plain(reply, 404, 'Page not found');
  const token = issueCsrfToken(request, reply, site.realmUid, secureCookies(ctx), `/sites/${site.uid}`);
  return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', PRIVATE)
    .send(`<!doctype html><html lang="${escapeHtml(site.defaultLocale)}"><head><meta charset="utf-8"><title>${escapeHtml(site.name)}</title></head><body><main><h1>${escapeHtml(site.name)}</h1>
<form method="post" action="/sites/${escapeHtml(site.uid)}/logout"><input type="hidden" name="${CSRF_FIELD}" value="${token}"><button type="submit">Sign out</button></form></main></body></html>`);
}

/** The scheme and host the site's absolute addresses start with: its own domain when asked on it. */
function originOf(ctx: Context, request: FastifyRequest, site: ServedSite): string {
  const base = new URL(ctx.config.baseUrl);
  return onOwnDomain(request, site) ? `${base.protocol}//${site.customDomain}` : base.origin;
}

/** Any address of a site: its files, sitemap, robots.txt, previews, sign-out page, and pages. */
async function serveSite(ctx: Context, request: FastifyRequest, reply: FastifyReply, site: ServedSite, path: string) {
  if (path.startsWith('/_preview/')) return preview(ctx, request, reply, site, path.slice('/_preview/'.length));
  if (path === '/logout') return logoutPage(ctx, request, reply, site);
  if (path === '/_auth/callback' && onOwnDomain(request, site)) {
    const back = await finishDomainSignIn(ctx, request, reply, site);
    return back ? reply.code(303).header('cache-control', PRIVATE).redirect(back, 303) : plain(reply, 400, 'The sign-in could not be completed: try again');
  }
  const version = keptVersion(ctx, site) ?? await compiledVersion(ctx, site);
  if (!version) return plain(reply, 404, 'Page not found');
  if (path === '/robots.txt') {
    return reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', PUBLIC_CACHE)
      .send(`User-agent: *\nAllow: /\nSitemap: ${originOf(ctx, request, site)}${rootOf(request, site)}/sitemap.xml\n`);
  }
  if (path === '/sitemap.xml') return sitemap(request, reply, site, version, originOf(ctx, request, site));
  if (path.startsWith('/_assets/')) {
    const file = version.file(path.slice('/_assets/'.length));
    if (!file) return plain(reply, 404, 'Page not found');
    return reply.header('content-type', file.type).header('cache-control', IMMUTABLE).send(file.body);
  }
  return servePage(ctx, request, reply, site, version, path);
}

/**
 * On a site's own domain every GET is the site's (`/about` is `/sites/{uid}/about`); its forms post to
 * `/sites/{uid}/...`, which the routes serve on any host. Requests for other hosts pass at once.
 */
/** What a custom domain can be (realms.ts's rules): a dotted name ending in letters, never an address or localhost. */
const CUSTOM_DOMAIN_LIKE = /^(?!.*\.localhost$)[a-z0-9.-]+\.[a-z][a-z0-9-]*$/;

export function siteDomainHook(ctx: Context): onRequestHookHandler {
  const baseHost = new URL(ctx.config.baseUrl).hostname.toLowerCase();
  /** Whether the request was a site's, and answered. */
  const servedOnDomain = async (request: FastifyRequest, reply: FastifyReply, host: string): Promise<boolean> => {
    // A database that does not answer is the route's to report (503 on /healthz), not this lookup's.
    const site = await siteOfDomain(ctx, host).catch(() => null);
    if (!site) return false;
    const path = request.url.split('?')[0];
    if (path.startsWith(`/sites/${site.uid}/`)) return false;
    await serveSite(ctx, request, reply, site, path);
    return true;
  };
  // A callback hook, passing every request for the base address at once: an async one costs a promise on each.
  return (request, reply, done) => {
    const host = hostOf(request);
    if ((request.method !== 'GET' && request.method !== 'HEAD') || host === baseHost || !CUSTOM_DOMAIN_LIKE.test(host)) return done();
    // An answered request ends here: a callback hook that sent the answer does not call done.
    servedOnDomain(request, reply, host).then((served) => { if (!served) done(); }, done);
  };
}

/**
 * The published sites: `/sites/{uid}/{path}` (and `/{path}` on a site's own domain, see siteDomainHook),
 * with the sitemap, robots.txt, the files under `/_assets/`, draft previews and sign-out.
 */
export function servedSitePages(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/sites/:site_uid', { schema: { ...hide, params: Params } }, async (request, reply) =>
      reply.code(301).redirect(`/sites/${encodeURIComponent(request.params.site_uid)}/`, 301));

    app.get('/sites/:site_uid/*', { schema: { ...hide, params: Params } }, async (request, reply) => {
      const kept = keptServedSite(ctx, request.params.site_uid);
      const site = kept === undefined ? await servedSite(ctx, request.params.site_uid) : kept;
      if (!site) return plain(reply, 404, 'Page not found');
      return serveSite(ctx, request, reply, site, `/${request.params['*'] ?? ''}`);
    });

    // Ends the realm session, tells every registered application (spec 5.1), and goes back to the site's home.
    app.post('/sites/:site_uid/logout', { schema: { ...hide, params: Params, body: LogoutForm } }, async (request, reply) => {
      const site = await servedSite(ctx, request.params.site_uid);
      const realm = site?.realmUid ? await findActiveRealm(ctx, site.realmUid) : undefined;
      if (!site || !realm) return plain(reply, 404, 'Page not found');
      if (!csrfMatches(request, request.body?.csrf_token)) return logoutPage(ctx, request, reply.code(403), site);
      if (onOwnDomain(request, site)) {
        await endDomainSession(ctx, request, reply, site);
      } else {
        const cookieName = realmCookieName(realm.uid);
        await signOut(ctx, realm, request.cookies[cookieName]);
        reply.clearCookie(cookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies(ctx) });
      }
      await tellApplicationsOfSignOut(ctx);
      return reply.header('cache-control', PRIVATE).redirect(`${rootOf(request, site)}/`, 303);
    });
  };
}
