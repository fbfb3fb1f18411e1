import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies as Fastify reads them (a `__proto__` or `constructor.prototype` key refused), except that
 * an empty one is no body: many clients send `Content-Type: application/json` on every request, a
 * body-less DELETE or POST included, which Fastify alone answers 400. A route that needs a body still
 * refuses the absent one, through its schema.
 */
export function readEmptyJsonAsNoBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') done(null, undefined);
    else parse(request, body as string, done);
  });
}
