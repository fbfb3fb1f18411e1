import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../../context.js';
import { html, pageErrorHandler, sendPage } from '../../shared/html/layout.js';
import { pageTexts, type Texts } from '../../shared/html/messages.js';
import { realmOfLink, recordOpen, unsubscribe } from '../tracking.js';

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const gone = (t: Texts) => ({
  texts: t, title: t.errorTitle(t.linkUnknownHeading), heading: t.linkUnknownHeading,
  body: html`<p class="alert" role="alert">${t.unsubscribeLinkInvalid}</p>`,
});

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
      const realm = await realmOfLink(ctx, request.params.token);
      const t = pageTexts(request, realm ?? undefined);
      if (realm === null) return sendPage(reply, 404, gone(t));
      return sendPage(reply, 200, {
        texts: t, title: t.unsubscribeTitle,
        body: html`<p>${t.unsubscribeQuestion(realm.name)}</p>
<form method="post"><button type="submit" name="List-Unsubscribe" value="One-Click">${t.unsubscribeButton}</button></form>`,
      });
    });

    app.post<{ Params: { token: string } }>('/messaging/unsubscribe/:token', { schema: { hide: true } }, async (request, reply) => {
      const t = pageTexts(request);
      if (!(await unsubscribe(ctx, request.params.token))) return sendPage(reply, 404, gone(t));
      return sendPage(reply, 200, { texts: t, title: t.unsubscribedTitle, body: html`<p role="status">${t.unsubscribed}</p>` });
    });
  };
}
