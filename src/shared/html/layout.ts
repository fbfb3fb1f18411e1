import type { FastifyReply, FastifyRequest } from 'fastify';
import { handleError, markError, statusOf, toAppError } from '../../http/errors.js';

import type { Brand } from '../../realms/branding.js';
import { brandStyle, contentSecurityPolicy, logo } from './brand.js';
import { html, Markup } from './markup.js';
import { pageTexts, type Texts } from './messages.js';

export { escapeHtml, html, Markup } from './markup.js';

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
body { margin: 0; background: Canvas; color: CanvasText; }
header { max-width: 26rem; margin: 3rem auto -2.5rem; padding: 0 1.25rem; }
.logo { display: block; max-height: 4rem; max-width: 100%; }
main { max-width: 26rem; margin: 4rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
form { display: grid; gap: 1rem; margin-top: 1.5rem; }
label { display: grid; gap: .3rem; font-weight: 600; }
input { font: inherit; padding: .6rem .7rem; border: 1px solid GrayText; border-radius: .4rem; }
input[aria-invalid="true"] { border-color: #b00020; border-width: 2px; }
button { font: inherit; font-weight: 600; padding: .7rem 1rem; border: 0; border-radius: .4rem; background: var(--atrium-primary, #1d4ed8); color: var(--atrium-on-primary, #fff); cursor: pointer; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.alert { padding: .75rem 1rem; border-radius: .4rem; border: 2px solid #b00020; background: rgb(176 0 32 / .08); }
.notice { padding: .75rem 1rem; border-radius: .4rem; border: 1px solid GrayText; }
a { color: var(--atrium-link, LinkText); text-decoration-color: var(--atrium-primary, currentColor); }
`;

export interface Page {
  /** The language the page is written in (pageTexts): its texts, and its `lang`. */
  texts: Texts;
  /** The document title's first part and, unless `heading` says otherwise, the page's one h1. */
  title: string;
  heading?: string;
  /** The realm whose page this is: its branding, and its page title (else its name) ending the document's title. */
  realm?: Brand;
  body: Markup;
}

/** A whole accessible document: language, viewport, title, landmarks and one h1. */
export function renderPage(page: Page): string {
  const site = page.realm ? page.realm.brandingPageTitle ?? page.realm.name : null;
  const title = site ? `${page.title} · ${site}` : page.title;
  return `<!doctype html>\n${html`<html lang="${page.texts.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${new Markup(STYLE + brandStyle(page.realm))}</style>
</head>
<body>
${logo(page.realm)}
<main>
<h1>${page.heading ?? page.title}</h1>
${page.body}
</main>
</body>
</html>
`.text}`;
}

/**
 * Sends a page with the headers every realm page carries: never cached, never framed, no scripts,
 * no referrer (the address may hold a redirect_uri with a state), and its language chosen by the
 * Accept-Language header.
 */
export function sendPage(reply: FastifyReply, status: number, page: Page): FastifyReply {
  return reply.code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('vary', 'Accept-Language')
    .header('content-security-policy', contentSecurityPolicy(page.realm))
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(renderPage(page));
}

/** A malformed form (a field sent twice, say) gets a page, not the JSON of the API catalogs. */
export function pageErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = toAppError(error);
  if (!known || statusOf(known.kind) >= 500) return handleError(error, request, reply);
  markError(known, request, reply);
  const texts = pageTexts(request);
  return sendPage(reply, known.kind === 'invalid' ? 400 : statusOf(known.kind), { texts, title: texts.badRequestTitle, body: html`<p>${texts.badRequest}</p>` });
}

/** An unknown or inactive realm (no realm given), or no page at this address. */
export function pageNotFound(reply: FastifyReply, realm?: Brand & { defaultLanguage: string }): FastifyReply {
  const texts = pageTexts(reply.request, realm);
  return sendPage(reply, 404, { texts, realm, title: texts.notFoundTitle, body: html`<p>${texts.notFound}</p>` });
}
