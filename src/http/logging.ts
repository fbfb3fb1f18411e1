import type { FastifyReply, FastifyRequest } from 'fastify';

const SECRET_PARAM = /token|code|secret|password|verifier|key|session/i;

/** The request address as it may be logged: secret query values and one-time link tokens are masked. */
export function redactUrl(url: string): string {
  if (!url.includes('?') && !url.includes('/session/access/')) return url;
  const [path, query] = url.split('?', 2);
  const safePath = path.replace(/(\/session\/access\/)[^/?]+/, '$1[redacted]');
  if (query === undefined) return safePath;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (SECRET_PARAM.test(key)) params.set(key, '[redacted]');
  return `${safePath}?${params.toString()}`;
}

/** One line per request; headers (credentials, cookies) are never logged. */
export function logRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  request.log.info({
    method: request.method,
    url: redactUrl(request.url),
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
  }, 'request');
  done();
}
