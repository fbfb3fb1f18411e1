import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { Context } from './context.js';
import { catalogPlugin } from './http/catalog.js';
import { routeNotFound } from './errors/index.js';
import { handleError } from './http/errors.js';
import { noSniff } from './http/headers.js';
import { storableMoments } from './http/moments.js';
import { finiteNumbers } from './http/finite.js';
import { sharedCompilers } from './http/schema-compilers.js';
import { healthRoutes } from './http/health.js';
import { encodeLocation } from './http/location.js';
import { logRequest, logsRequests } from './http/logging.js';
import { refuseNulInBody, refuseNulInUrl } from './http/nul-guard.js';
import { catalogs } from './catalogs.js';
import { installMetrics } from './metrics/routes/metrics.js';
import { telemetry } from './telemetry/hooks.js';
import { lingerOnRefusedBody } from './http/linger.js';
import { readEmptyJsonAsNoBody } from './http/json-body.js';
import { onUsersDeleted } from './realms/user-cleanups.js';
import { DEFAULT_MODULES } from './modules.js';
import type { AtriumModule } from './shared/atrium-module.js';
import { named } from './http/plugin-name.js';

export interface AppOptions {
  /** The server's logger; without one (tests) nothing is logged. */
  logger?: FastifyBaseLogger;
  /** The features to serve: DEFAULT_MODULES unless a test adds or leaves out one. */
  modules?: readonly AtriumModule[];
}

/** The whole HTTP surface: the four catalogs and the pages of the modules (realm pages, OAuth server, admin console), the health check and the metrics. */
export async function buildApp(ctx: Context, options: AppOptions = {}): Promise<FastifyInstance> {
  const modules = options.modules ?? DEFAULT_MODULES;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: ctx.config.bodyLimit,
    // Off unless TRUST_PROXY says so: X-Forwarded-Host decides which realm's custom domain a request is for.
    trustProxy: ctx.config.trustProxy,
    // A URL the router cannot read (a broken escape, a path parameter past its length) gets the shared error shape.
    frameworkErrors: handleError,
    // strictTypes off: routes taking a file document their multipart form with a type-less schema, since
    // the file is read by the handler (http/multipart.ts) and the validator must not refuse the (absent) parsed body.
    ajv: {
      customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false, allowUnionTypes: true, strictTypes: false },
      plugins: [finiteNumbers],
      onCreate: storableMoments,
    },
    schemaController: { compilersFactory: sharedCompilers },
  });
  for (const module of modules) if (module.onUsersDeleted) onUsersDeleted(module.onUsersDeleted);
  // Before any route or hook, so that every one is traced (only when tracing is on).
  if (telemetry.fastifyPlugin) await app.register(telemetry.fastifyPlugin);
  app.addHook('onRequest', noSniff);
  if (logsRequests(options.logger)) app.addHook('onResponse', logRequest);
  installMetrics(app, ctx);
  app.setErrorHandler(handleError);
  // Root hooks run before every catalog's own (the credential guards read the path's realm uid).
  app.addHook('onRequest', refuseNulInUrl);
  app.addHook('preValidation', refuseNulInBody);
  app.addHook('onSend', encodeLocation);
  app.addHook('onSend', lingerOnRefusedBody);
  app.setNotFoundHandler((request, reply) => handleError(routeNotFound(), request, reply));
  readEmptyJsonAsNoBody(app);
  await app.register(cookie);
  await app.register(formbody);
  // Files are read by the routes that take them (http/multipart.ts), each with its own size limit (the account's);
  // a file past it is cut and marked truncated, for the upload checks to refuse by its name.
  await app.register(multipart, { limits: { files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25 }, throwFileSizeLimit: false });
  for (const module of modules) for (const hook of module.requestHooks?.(ctx) ?? []) app.addHook('onRequest', hook);
  await app.register(named('health', healthRoutes(ctx)));
  for (const catalog of catalogs(ctx, modules)) {
    await app.register(named(catalog.prefix, catalogPlugin(catalog)), { prefix: catalog.prefix });
  }
  for (const module of modules) {
    for (const [i, pages] of (module.pages?.(ctx, modules) ?? []).entries()) await app.register(named(`${module.name} pages ${i}`, pages));
  }
  return app;
}
