import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { telemetry } from '../telemetry/hooks.js';
import { errorCodeOf } from './errors.js';

/**
 * Query parameters whose values are known to be harmless: paging, sorting, and the OAuth request's
 * shape. Every other value is masked, so a parameter added later is hidden until it is listed here.
 */
const HARMLESS_PARAMS = new Set([
  'page', 'per_page', 'sort_by', 'order', 'only', 'locale', 'realm_uid',
  'response_type', 'scope', 'code_challenge_method', 'client_id',
]);

/** Pages (the realms', the console's invitation) whose last path segment is a one-time link's token. */
const LINK_TOKEN = /(\/session\/access\/|\/password\/reset\/|\/realms\/[^/?]+\/activation\/|^\/admin\/invitation\/)[^/?]+/;

/** An address as it may be logged: query values off the allow-list and one-time link tokens are masked. */
export function redactUrl(url: string): string {
  if (!url.includes('?') && !LINK_TOKEN.test(url)) return url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const safePath = path.replace(LINK_TOKEN, '$1[redacted]');
  if (q < 0) return safePath;
  const params = new URLSearchParams(url.slice(q + 1));
  const masked = new URLSearchParams();
  for (const [key, value] of params) masked.append(key, HARMLESS_PARAMS.has(key) ? value : '[redacted]');
  return `${safePath}?${masked.toString()}`;
}

/**
 * Whether a logger writes the request lines: Fastify's stand-in for an app built without one (the tests') writes
 * nothing, nor does a pino logger above `info`. The app installs `logRequest` only then, so no line is built for nothing
 * (redacting a long query string is the costly part).
 */
export function logsRequests(logger: FastifyBaseLogger | undefined): boolean {
  return !!logger && (logger as unknown as Pick<Logger, 'isLevelEnabled'>).isLevelEnabled('info');
}

/**
 * One line per request, with the error's code when it failed and its trace id when tracing is on;
 * headers (credentials, cookies) are never logged.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const code = errorCodeOf(reply);
  request.log.info({
    method: request.method,
    url: redactUrl(request.url),
    status: reply.statusCode,
    ...(code ? { code } : {}),
    ms: Math.round(reply.elapsedTime * 10) / 10,
    ...(telemetry.traceIdOf ? { trace_id: telemetry.traceIdOf(request) } : {}),
  }, 'request');
  done();
}
