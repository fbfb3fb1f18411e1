import type { FastifyPluginAsync } from 'fastify';
import type { Context } from './context.js';
import type { Catalog } from './http/catalog.js';
import type { AtriumModule, CatalogName } from './shared/atrium-module.js';
import { requireAccessRule } from './admin-auth/access-rules.js';
import { adminGuard } from './admin-auth/guard.js';
import { customerGuard, profileGuard, requireRealmParameter } from './customers/credential.js';
import { CUSTOMER_MODELS } from './customers/routes/me.js';
import { auditWrites } from './audit/writes.js';

/**
 * The admin reference page's writes with the session cookie (a member signed in to the console, no token
 * given to Authorize): the page asks the session for its CSRF token and sends it as X-CSRF-Token, as the
 * console does. A request with an Authorization header needs none.
 */
async function sendSessionCsrfToken<R extends { [key: string]: unknown }>(request: R): Promise<R> {
  const headers = request.headers as Record<string, string>;
  const method = String(request.method ?? 'GET').toUpperCase();
  const bearer = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  if (['GET', 'HEAD', 'OPTIONS'].includes(method) || bearer) return request;
  const session = await fetch('/api/admin/session', { credentials: 'same-origin' });
  const token = session.ok ? (await session.json()).csrf_token : undefined;
  if (token) headers['X-CSRF-Token'] = token;
  return request;
}

const bearer = { type: 'http', scheme: 'bearer', description: 'An admin API access token (team settings, API access)' };

function adminCatalog(ctx: Context, routes: FastifyPluginAsync[], modules: readonly AtriumModule[]): Catalog {
  return {
    prefix: '/api/admin',
    title: 'Atrium admin API',
    description: 'Everything the administration does. Authenticate with a Bearer access token, or with the admin session cookie '
      + 'plus the X-CSRF-Token header on unsafe methods.',
    securitySchemes: {
      bearer,
      session: { type: 'apiKey', in: 'cookie', name: 'atrium_admin', description: 'The admin session cookie set by POST /session' },
    },
    security: [{ bearer: [] }, { session: [] }],
    docsRequestInterceptor: sendSessionCsrfToken,
    tags: [
      { name: 'Session', description: 'Signing in and out of the administration' },
      { name: 'Account', description: 'Account settings' },
      { name: 'Team', description: 'Team members and their role assignments' },
      { name: 'Roles', description: 'Built-in and custom roles (spec 2.6)' },
      { name: 'API access', description: 'API access applications and access tokens (spec 2.14, 5.1)' },
      { name: 'Realms', description: 'End-user directories with their own sign-in pages, sessions and OAuth clients' },
      { name: 'Realm users', description: 'End users of a realm' },
      { name: 'Realm settings', description: 'Custom fields of a realm\'s users' },
      { name: 'Email templates', description: 'The mails Atrium writes (codes, links, notices): the account\'s defaults, realms\' overrides, previews and versions' },
      { name: 'OAuth clients', description: 'OAuth 2.0 clients of a realm (spec 2.13, 4.4)' },
      { name: 'Notifications', description: 'Notifications sent to users of a realm, read in their inbox (customers API)' },
      { name: 'Realm activity', description: 'The business event log of a realm\'s users' },
      { name: 'Integrations', description: 'A realm\'s help-desk (Zendesk) single sign-on' },
      { name: 'Identity provider', description: 'Sign-in to a realm delegated to an external OpenID Connect provider' },
      { name: 'Segments', description: 'Users of a realm selected by filters (spec 2.2)' },
      { name: 'Messaging', description: 'Mailing and notification campaigns, their deliveries and messages (spec 2.3–2.5)' },
      { name: 'Originations', description: 'A realm\'s guided application processes (steps of tasks) and its groups of reviewers' },
      { name: 'Submissions', description: 'Realm users\' runs through an origination: start, assign, review, extend, cancel' },
      { name: 'Attachments', description: 'Private files realm users uploaded to answer file questions' },
      { name: 'Content', description: 'Content spaces, their content types, entries and assets' },
      { name: 'Locks', description: 'Edit leases on content entries and site items: who is editing, heartbeat, take-over' },
      { name: 'Sites', description: 'Sites: Liquid layouts and snippets, files, the page tree, menus, review requests, versions and publishing' },
      { name: 'Forms', description: 'Forms built by admins, their responses (spam kept apart), CSV export and erasure' },
      { name: 'Audit log', description: 'What admins did: every write, sign-in, failed sign-in and lockout' },
      { name: 'Webhooks', description: 'Endpoints receiving signed POSTs of events (Standard Webhooks), their deliveries and attempts' },
    ],
    hooks: { onRequest: adminGuard(ctx), preHandler: modules.flatMap((m) => m.adminPreHandlers?.(ctx) ?? []) },
    checkRoute: requireAccessRule,
    extend: auditWrites(ctx, '/api/admin'),
    routes,
  };
}

function contentCatalog(routes: FastifyPluginAsync[]): Catalog {
  return {
    prefix: '/api/content',
    title: 'Atrium content API',
    description: 'The public content catalog: published entries of content spaces.',
    securitySchemes: {
      deliveryToken: { type: 'apiKey', in: 'header', name: 'Delivery-Token', description: 'Needed for private entries' },
    },
    // Every operation answers without a credential; a delivery token adds private entries.
    security: [{}, { deliveryToken: [] }],
    tags: [
      { name: 'Entries', description: 'Published entries of a content type, filtered, sorted, in a locale' },
      { name: 'Content types', description: 'The JSON Schema of a content type\'s entries' },
      { name: 'Assets', description: 'Images and files of content spaces, at their public URLs' },
      { name: 'Sites', description: 'The published menus of a site, for headless front ends' },
      { name: 'Forms', description: 'Public forms for headless front ends: the definition with a form token, and responses' },
    ],
    routes,
  };
}

function profileCatalog(ctx: Context, routes: FastifyPluginAsync[]): Catalog {
  return {
    prefix: '/api/profile',
    title: 'Atrium profile API',
    description: 'The signed-in end user\'s own profile: an OAuth 2.0 access token of a realm (Bearer), or the realm session cookie.',
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An OAuth 2.0 access token of a realm' } },
    security: [{ bearer: [] }],
    tags: [{ name: 'Profile', description: 'The signed-in realm user' }],
    hooks: { onRequest: profileGuard(ctx) },
    models: CUSTOMER_MODELS,
    routes,
  };
}

function customersCatalog(ctx: Context, routes: FastifyPluginAsync[]): Catalog {
  return {
    prefix: '/api/customers',
    title: 'Atrium customers API',
    description: 'Answers on behalf of an end user of a realm: an OAuth 2.0 access token of the realm (Bearer) or the realm '
      + 'session cookie. Paths start with /realms/{realm_uid}. A recognized token decides alone; without one the cookie is used. '
      + 'An unknown or inactive realm answers 404 `{}`; a missing or unknown credential 401 `user_session`, an expired or revoked '
      + 'one 401 `grant_expired`.',
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An OAuth 2.0 access token of the realm' } },
    security: [{ bearer: [] }],
    tags: [
      { name: 'Profile', description: 'The signed-in realm user (spec 2.7, 4.3)' },
      { name: 'One-time codes', description: 'Codes sent by email from the realm page otp_login (spec 3, 8)' },
      { name: 'Notifications', description: 'The signed-in user\'s inbox' },
      { name: 'Events', description: 'The signed-in user\'s business events (spec 2.8, 4.3)' },
      { name: 'Submissions', description: 'The signed-in user\'s origination submissions (spec 2.9–2.11)' },
      { name: 'Integrations', description: 'Help-desk (Zendesk) sign-in for the signed-in user; the realm\'s integration is set up in the admin API first' },
      { name: 'Attachments', description: 'The signed-in user\'s private files, the answers to file questions (spec 2.12)' },
      { name: 'Content', description: 'A delivery token for the private entries of the content API' },
      { name: 'Forms', description: 'Forms of the realm\'s users, answered by the signed-in user' },
    ],
    notFoundBody: {},
    hooks: { onRequest: customerGuard(ctx) },
    checkRoute: requireRealmParameter,
    models: CUSTOMER_MODELS,
    routes,
  };
}

/** The four catalogs, each with the routes the modules put in it (each route is registered in exactly one). */
export function catalogs(ctx: Context, modules: readonly AtriumModule[]): Catalog[] {
  const routes: Record<CatalogName, FastifyPluginAsync[]> = { admin: [], content: [], profile: [], customers: [] };
  for (const module of modules) {
    for (const [name, plugins] of Object.entries(module.catalogs?.(ctx, modules) ?? {})) routes[name as CatalogName].push(...plugins);
  }
  return [adminCatalog(ctx, routes.admin, modules), contentCatalog(routes.content), profileCatalog(ctx, routes.profile), customersCatalog(ctx, routes.customers)];
}
