import type { FastifyReply, FastifyRequest } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

/** The label of a request no route matched: its URL is whatever a client sent, never a label. */
const UNMATCHED = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * The onResponse hook counting every request and its duration by route pattern, method and status
 * class: one histogram observe per request, on a child looked up by one string key (the label sets
 * are bounded by the routes, so the cache is too).
 */
export function requestDurations(registry: Registry) {
  const histogram = new Histogram({
    name: 'atrium_http_request_duration_seconds',
    help: 'HTTP requests answered, by route pattern, method and status class (the _count is the number of requests).',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const children = new Map<string, Histogram.Internal<'route' | 'method' | 'status_class'>>();
  return function observeRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const route = request.routeOptions.url ?? UNMATCHED;
    const method = METHODS.has(request.method) ? request.method : 'OTHER';
    const statusClass = STATUS_CLASSES[Math.trunc(reply.statusCode / 100)] ?? '5xx';
    const key = `${method} ${statusClass} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = histogram.labels(route, method, statusClass);
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  };
}
