import type { FastifyReply } from 'fastify';
import type { StoredObject } from '../storage/storage.js';

/** How a stored object is answered: `download` names the file for the browser's Content-Disposition. */
export interface Delivery {
  contentType: string;
  cacheControl: string;
  download?: { fileName: string; inline: boolean };
}

/** An avatar: its key is random and never reused, so it is cached for good. */
export const PUBLIC_IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * RFC 6266 with RFC 8187: an ASCII fallback name (anything else, quotes and backslashes replaced) and the
 * exact name percent-encoded in UTF-8, so that no client text reaches the header as it is.
 */
export function contentDisposition(fileName: string, inline: boolean): string {
  const fallback = fileName.replace(/[^\x20-\x7E]|["\\%]/g, '_') || 'file';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Answers with a stored object whose content was checked, when it was uploaded, to be `contentType`.
 * It is served so that a browser never guesses another type nor runs anything in it, should a file
 * have got past the checks: nosniff, and a CSP that blocks every load and sandboxes the document.
 */
export function sendStoredObject(reply: FastifyReply, object: StoredObject, delivery: Delivery): FastifyReply {
  reply
    .header('content-type', delivery.contentType)
    .header('content-length', object.size)
    .header('cache-control', delivery.cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox");
  if (delivery.download) reply.header('content-disposition', contentDisposition(delivery.download.fileName, delivery.download.inline));
  return reply.send(object.content);
}
