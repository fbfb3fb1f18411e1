import type { FastifyReply } from 'fastify';
import { html, sendPage } from '../shared/html/layout.js';
import { pageTexts } from '../shared/html/messages.js';
import type { Realm } from '../realms/realms.js';
import type { AuthorizeProblem } from './authorize.js';

/** The page shown when authorization cannot send the user back to the client (unknown client or redirect URI). */
export function sendAuthorizeError(reply: FastifyReply, realm: Realm, problem: AuthorizeProblem): FastifyReply {
  const t = pageTexts(reply.request, realm);
  return sendPage(reply, 400, {
    texts: t, title: t.authorizeInvalidTitle, realm,
    body: html`<p role="alert" class="alert">${t[problem]}</p>
<p>${t.authorizeContact}</p>`,
  });
}

/** The page of an authorization request for a realm that does not exist or is inactive. */
export function sendUnknownRealm(reply: FastifyReply): FastifyReply {
  const t = pageTexts(reply.request);
  return sendPage(reply, 404, { texts: t, title: t.unknownRealmTitle, body: html`<p role="alert" class="alert">${t.unknownRealm}</p>` });
}
