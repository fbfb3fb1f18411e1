import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Realm } from '../realms.js';
import { issueCsrfToken, CSRF_FIELD } from '../../shared/html/csrf.js';
import { html, sendPage, type Markup } from '../../shared/html/layout.js';
import { pageTexts, type Texts } from '../../shared/html/messages.js';
import { pagePath } from '../../shared/html/paths.js';

/** What a one-use link's page says: `path` is the link's own page, below the realm's. */
export interface LinkConfirmation {
  title: string;
  heading?: string;
  text: Markup;
  button: string;
  path: string;
}

/**
 * The page a one-use link opens before it is used: mail scanners fetch links, so the GET only shows a
 * button whose form posts the confirmation (with the page's CSRF token); `error` says why it is shown again.
 */
export function sendLinkConfirmation(
  request: FastifyRequest, reply: FastifyReply, realm: Realm, secure: boolean,
  page: (t: Texts) => LinkConfirmation, status: number, error?: string,
): FastifyReply {
  const csrf = issueCsrfToken(request, reply, realm.uid, secure);
  const t = pageTexts(request, realm);
  const { title, heading, text, button, path } = page(t);
  return sendPage(reply, status, {
    texts: t, title: error ? t.errorTitle(title) : title, heading, realm,
    body: html`${error ? html`<p class="alert" role="alert">${error}</p>` : ''}
<p>${text}</p>
<form method="post" action="${pagePath(realm, path)}">
<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
<button type="submit">${button}</button>
</form>`,
  });
}
