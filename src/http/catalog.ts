import type { FastifyInstance, FastifyPluginAsync, onRequestAsyncHookHandler, onRequestHookHandler, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi, { type FastifySwaggerUiConfigOptions } from '@fastify/swagger-ui';
import type { TSchema } from '@sinclair/typebox';
import { AppError, routeNotFound, type CatalogName, type FixedBody } from '../errors/index.js';
import { listCodes } from './code-lists.js';
import { carriesCodeInBody, ErrorBody, ErrorBodyWithCode, handleError } from './errors.js';
import { compressAnswers } from './compression.js';
import { noStoreByDefault } from './headers.js';
import { operationIdOf, withoutOwnKeywords } from './openapi-document.js';
import { Meta } from './pagination.js';
import { useModels } from './models.js';
import { failures } from './responses.js';
import { named } from './plugin-name.js';

const LOGO = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32">'
  + '<text x="0" y="24" font-family="sans-serif" font-size="24" font-weight="700" fill="#ffffff">Atrium</text></svg>');

export interface Catalog {
  /** URL prefix of the catalog's operations; its reference page is `<prefix>/docs`. */
  prefix: string;
  title: string;
  description: string;
  /** OpenAPI security schemes offered by the page's Authorize dialog. */
  securitySchemes: Record<string, Record<string, unknown>>;
  /** Tags (sections) in the order the page lists them. */
  tags: { name: string; description: string }[];
  /** The body a specification fixes for a 404 of an unknown route under the prefix (the customers API's `{}`). */
  notFoundBody?: FixedBody;
  /** Security requirements that apply to every operation unless it says otherwise. */
  security?: Record<string, string[]>[];
  /** Hooks that apply to every route of the catalog (the admin credential guard, say). */
  hooks?: {
    /** Async, or a callback hook where most requests can go on without waiting (the customers guard). */
    onRequest?: onRequestAsyncHookHandler | onRequestHookHandler;
    /** Run before each handler, after those `extend` adds (the admin path's realm, inside the audit transaction). */
    preHandler?: preHandlerAsyncHookHandler[];
  };
  /** Adds more hooks to the catalog's scope before its routes (the admin audit log of writes). */
  extend?: (scope: FastifyInstance) => void;
  /** Refuses (throws) a route the catalog cannot serve safely as declared: start-up then fails (the admin access rule). */
  checkRoute?: (route: RouteOptions) => void;
  /**
   * Runs in the reference page before each request it executes (Swagger UI's `requestInterceptor`),
   * serialized as source: it may use nothing but its argument and the browser's globals.
   */
  docsRequestInterceptor?: NonNullable<FastifySwaggerUiConfigOptions['requestInterceptor']>;
  /** Models every route of the catalog may reference. */
  models?: TSchema[];
  routes: FastifyPluginAsync[];
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Failures an operation can answer whatever its own logic, declared here once rather than in every
 * route: a URL with a broken escape or a NUL character (400); a path parameter past the router's
 * length limit (414); an integer path parameter that is not one, or out of range (422); and where a
 * body is read, malformed JSON or a NUL in it (400), a body past the size limit (413), a media type
 * no parser takes (415); and a database that cannot be reached for a moment (503). Each failure then
 * lists the error codes it may carry (code-lists.ts).
 */
type PropertySchema = Record<string, unknown> & { type?: string };

const CONSTRAINTS = ['maxLength', 'minLength', 'pattern', 'enum', 'const', 'minimum', 'maximum', 'format', 'anyOf', 'oneOf', 'maxItems', 'minItems'];

/** A path or query parameter that validation can refuse (422): a constraint, or a type other than a plain string. */
const refusable = (property: PropertySchema) => (property.type !== undefined && property.type !== 'string')
  || CONSTRAINTS.some((key) => Object.hasOwn(property, key));

function declareCommonFailures(route: RouteOptions, catalog: CatalogName): void {
  const schema = route.schema as {
    response?: Record<string, unknown>; params?: { properties?: Record<string, PropertySchema> }; querystring?: { properties?: Record<string, PropertySchema> };
  } | undefined;
  if (!schema?.response) return;
  const params = Object.values(schema.params?.properties ?? {});
  const statuses = [400, 503];
  if (params.length) statuses.push(414);
  if ([...params, ...Object.values(schema.querystring?.properties ?? {})].some(refusable)) statuses.push(422);
  if ([route.method].flat().some((m) => BODY_METHODS.has(m))) statuses.push(413, 415);
  schema.response = listCodes({ ...failures(...statuses), ...schema.response }, catalog);
}

/**
 * One catalog: its routes in an encapsulated scope, with an OpenAPI 3.1 document generated from
 * those routes' schemas only, and the interactive reference page that can execute them.
 */
export function catalogPlugin(catalog: Catalog): FastifyPluginAsync {
  return async (scope: FastifyInstance) => {
    const name = catalog.prefix.slice('/api/'.length) as CatalogName;
    await compressAnswers(scope);
    useModels(scope, carriesCodeInBody(catalog.prefix) ? ErrorBodyWithCode : ErrorBody, Meta, ...(catalog.models ?? []));
    await scope.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: catalog.title, description: catalog.description, version: '1.0.0', license: { name: 'MIT', identifier: 'MIT' } },
        servers: [{ url: catalog.prefix, description: 'this server' }],
        tags: catalog.tags,
        components: { securitySchemes: catalog.securitySchemes as never },
        security: catalog.security,
      },
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `Model${i}`) },
      // Documented paths are relative to the catalog's server address.
      transform: ({ schema, url }) => ({
        schema: (schema.summary ? { ...schema, operationId: operationIdOf(String(schema.summary)) } : schema) as never,
        url: url.slice(catalog.prefix.length) || '/',
      }),
      transformObject: (document) => withoutOwnKeywords('openapiObject' in document ? document.openapiObject : document.swaggerObject),
    });
    // The reference pages are public: their routes (the UI's own among them) say so.
    await scope.register(named(`${catalog.prefix} reference page`, async (docs) => {
      docs.addHook('onRoute', (route) => { route.config = { ...route.config, access: 'public' }; });
      await docs.register(swaggerUi, {
        routePrefix: '/docs',
        indexPrefix: catalog.prefix,
        uiConfig: {
          docExpansion: 'list', deepLinking: true, persistAuthorization: true, tryItOutEnabled: true,
          ...(catalog.docsRequestInterceptor ? { requestInterceptor: catalog.docsRequestInterceptor } : {}),
        },
        staticCSP: true,
        theme: { title: catalog.title },
        logo: { type: 'image/svg+xml', content: LOGO, href: `${catalog.prefix}/docs`, target: '_self' },
      });
      docs.get('/docs/openapi.json', { schema: { hide: true } }, async () => scope.swagger());
    }));
    scope.addHook('onSend', noStoreByDefault);
    if (catalog.hooks?.onRequest) scope.addHook('onRequest', catalog.hooks.onRequest);
    catalog.extend?.(scope);
    for (const hook of catalog.hooks?.preHandler ?? []) scope.addHook('preHandler', hook);
    scope.addHook('onRoute', (route) => {
      catalog.checkRoute?.(route);
      declareCommonFailures(route, name);
    });
    scope.setErrorHandler(handleError);
    scope.setNotFoundHandler((request, reply) =>
      handleError(new AppError(routeNotFound.declaration, ['Not found'], { body: catalog.notFoundBody }), request, reply));
    for (const [i, routes] of catalog.routes.entries()) await scope.register(named(`${catalog.prefix} routes ${i}`, routes));
  };
}
