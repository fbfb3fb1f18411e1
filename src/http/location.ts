import type { FastifyReply, FastifyRequest } from 'fastify';

const UNSAFE = /[^\x21-\x7e]+/g;

/**
 * Percent-encodes what a header may not carry: every run of characters outside printable ASCII as
 * its UTF-8 bytes (a lone surrogate becomes U+FFFD rather than throwing). Escapes already present
 * are kept, so an encoded value stays as it is.
 */
export function encodeHeaderValue(value: string): string {
  return value.replace(UNSAFE, (run) => [...Buffer.from(run, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

/** A redirect may name a target from client text (`redirect_uri`): its Location is encoded once, here, for every route. */
export function encodeLocation(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload: unknown) => void): void {
  const location = reply.getHeader('location');
  if (typeof location === 'string') reply.header('location', encodeHeaderValue(location));
  done(null, payload);
}
