import type { FastifyReply, FastifyRequest } from 'fastify';

/** The most of a refused body read and thrown away to keep the connection, rather than reset it. */
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Fastify refuses a body past the limit (413) before reading it, and closes the connection: the unread bytes
 * then reset it, and a client (or a proxy) still sending gets ECONNRESET or EPIPE instead of the 413 (a 502
 * through a proxy). For a body of declared length up to LINGER_BYTES the rest is read and discarded instead
 * (Node drains an unread request once its answer is sent), and the connection kept; a larger or unbounded
 * one still closes it.
 */
export function lingerOnRefusedBody(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload: unknown) => void): void {
  if (reply.statusCode === 413 && reply.getHeader('connection') === 'close') {
    const length = Number(request.headers['content-length']);
    if (Number.isSafeInteger(length) && length <= LINGER_BYTES) reply.removeHeader('connection');
  }
  done(null, payload);
}
