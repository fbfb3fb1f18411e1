import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { badRequest } from '../errors/index.js';

/**
 * True when a string, or any key or string inside an object or array, holds a NUL character. Walks
 * with its own stack: a body nested thousands deep must not exhaust the call stack.
 */
function holdsNul(root: unknown): boolean {
  const pending = [root];
  while (pending.length) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

const refusal = () => badRequest('The request contains a NUL character, which no text may hold');

/**
 * PostgreSQL refuses NUL in text and jsonb, so no string holding one may reach a query. Path and
 * query are checked on request, before the catalogs' credential guards read them (root hooks run
 * first); parsed bodies before validation. Callback hooks, like every root hook: they run on every request,
 * and an async one costs a promise and a turn of the microtask queue each time.
 */
export function refuseNulInUrl(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  done(holdsNul(request.params) || holdsNul(request.query) ? refusal() : undefined);
}

export function refuseNulInBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  done(holdsNul(request.body) ? refusal() : undefined);
}
