import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../context.js';
import { html, pageErrorHandler, sendPage } from '../realms/pages/html.js';
import { realmOfLink, recordOpen, unsubscribe } from './tracking.js';

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const gone = {
  title: 'Link not valid',
  body: html`<p>This unsubscribe link is not valid, or its message no longer exists.</p>`,
};

/**
 * The addresses campaign mail carries: the tracking pixel and the unsubscribe link. The link's GET
 * shows a confirmation form (link scanners and prefetchers follow GETs); its POST unsubscribes, and
 * is also what a mailbox's one-click button sends (RFC 8058: `List-Unsubscribe=One-Click`).
 */
export function messagingLinkRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler(pageErrorHandler);

    app.get<{ Params: { token: string } }>('/messaging/open/:token', { schema: { hide: true } }, async (request, reply) => {
      await recordOpen(ctx, request.params.token.replace(/\.gif$/, ''));
      return reply.header('content-type', 'image/gif').header('cache-control', 'no-store, private').send(PIXEL);
    });

    app.get<{ Params: { token: string } }>('/messaging/unsubscribe/:token', { schema: { hide: true } }, async (request, reply) => {
      const realmName = await realmOfLink(ctx, request.params.token);
      if (realmName === null) return sendPage(reply, 404, gone);
      return sendPage(reply, 200, {
        title: 'Unsubscribe', realmName,
        body: html`<p>Stop receiving campaign messages from ${realmName} at this address?</p>
<form method="post"><button type="submit" name="List-Unsubscribe" value="One-Click">Unsubscribe</button></form>`,
      });
    });

    app.post<{ Params: { token: string } }>('/messaging/unsubscribe/:token', { schema: { hide: true } }, async (request, reply) => {
      if (!(await unsubscribe(ctx, request.params.token))) return sendPage(reply, 404, gone);
      return sendPage(reply, 200, { title: 'Unsubscribed', body: html`<p role="status">You will receive no more campaign messages at this address.</p>` });
    });
  };
}
