import type { FastifyReply } from 'fastify';
import type { StoredObject } from '../storage/storage.js';

/**
 * Answers with a stored object whose content was checked, when it was uploaded, to be `contentType`.
 * Its key is random and never reused, so it is cached for good; it is served so that a browser never
 * guesses another type nor runs anything in it, should a file have got past the checks.
 */
export function sendStoredObject(reply: FastifyReply, object: StoredObject, contentType: string): FastifyReply {
  return reply
    .header('content-type', contentType)
    .header('content-length', object.size)
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(object.content);
}
