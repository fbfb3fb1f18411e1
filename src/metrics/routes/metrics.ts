import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, register as processRegistry, Registry } from 'prom-client';
import type { Context } from '../../context.js';
import { bearerOf } from '../../http/bearer.js';
import { unauthorized } from '../../errors/index.js';
import { hashSecret, safeEqual } from '../../security/secrets.js';
import { databaseGauges } from '../gauges.js';
import { requestDurations } from '../http.js';

let processMetricsStarted = false;

/** Node's own metrics (event-loop lag, heap, GC, CPU) beside the counters, once per process. */
function startProcessMetrics(): void {
  if (processMetricsStarted) return;
  processMetricsStarted = true;
  collectDefaultMetrics({ register: processRegistry });
}

/** Compares hashes, so that neither the token's bytes nor its length show in the time taken. */
function bearerMatches(request: FastifyRequest, token: string): boolean {
  return safeEqual(hashSecret(bearerOf(request) ?? ''), hashSecret(token));
}

/**
 * `GET /metrics` in the Prometheus text format, when METRICS_TOKEN or METRICS_PUBLIC enables it;
 * otherwise nothing is added (no route, no hook), and the address answers 404 like any unknown one.
 * Outside the four catalogs, like /healthz. The process-wide counters (prom-client's default
 * registry) come first, then this app's request histogram and database gauges.
 */
export function installMetrics(app: FastifyInstance, ctx: Context): void {
  const settings = ctx.config.metrics;
  if (!settings.enabled) return;
  startProcessMetrics();
  const appRegistry = new Registry();
  app.addHook('onResponse', requestDurations(appRegistry));
  databaseGauges(appRegistry, ctx);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (settings.token !== null && !bearerMatches(request, settings.token)) {
      const error = unauthorized('A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)');
      error.headers = { 'www-authenticate': 'Bearer realm="metrics"' };
      throw error;
    }
    const [process, own] = await Promise.all([processRegistry.metrics(), appRegistry.metrics()]);
    return reply.header('content-type', processRegistry.contentType).header('cache-control', 'no-store').send(`${process}\n${own}`);
  });
}
