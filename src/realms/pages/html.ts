import type { FastifyReply, FastifyRequest } from 'fastify';
import { handleError, toAppError } from '../../http/errors.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values go through this, always. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A piece of markup already escaped; `html` passes it through unchanged. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = string | number | Markup | Markup[] | null | undefined | false;

/** Tagged template that escapes every interpolated value except Markup. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0];
  values.forEach((value, i) => {
    if (value instanceof Markup) out += value.text;
    else if (Array.isArray(value)) out += value.map((m) => m.text).join('');
    else if (value !== null && value !== undefined && value !== false) out += escapeHtml(String(value));
    out += strings[i + 1];
  });
  return new Markup(out);
}

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
body { margin: 0; background: Canvas; color: CanvasText; }
main { max-width: 26rem; margin: 4rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
form { display: grid; gap: 1rem; margin-top: 1.5rem; }
label { display: grid; gap: .3rem; font-weight: 600; }
input { font: inherit; padding: .6rem .7rem; border: 1px solid GrayText; border-radius: .4rem; }
input[aria-invalid="true"] { border-color: #b00020; border-width: 2px; }
button { font: inherit; font-weight: 600; padding: .7rem 1rem; border: 0; border-radius: .4rem; background: #1d4ed8; color: #fff; cursor: pointer; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.alert { padding: .75rem 1rem; border-radius: .4rem; border: 2px solid #b00020; background: rgb(176 0 32 / .08); }
.notice { padding: .75rem 1rem; border-radius: .4rem; border: 1px solid GrayText; }
a { color: LinkText; }
`;

export interface Page {
  /** The document title's first part and, unless `heading` says otherwise, the page's one h1. */
  title: string;
  heading?: string;
  realmName?: string;
  body: Markup;
}

/** A whole accessible document: language, viewport, title, landmarks and one h1. */
export function renderPage(page: Page): string {
  const title = page.realmName ? `${page.title} · ${page.realmName}` : page.title;
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${new Markup(STYLE)}</style>
</head>
<body>
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
 * no referrer (the address may hold a redirect_uri with a state).
 */
export function sendPage(reply: FastifyReply, status: number, page: Page): FastifyReply {
  return reply.code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'")
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(renderPage(page));
}

/** A malformed form (a field sent twice, say) gets a page, not the JSON of the API catalogs. */
export function pageErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = toAppError(error);
  if (!known || known.status >= 500) return handleError(error, request, reply);
  return sendPage(reply, known.status === 422 ? 400 : known.status, {
    title: 'Bad request',
    body: html`<p>This request could not be understood. Go back to the page you came from and try again.</p>`,
  });
}

/** An unknown or inactive realm, or no page at this address. */
export const pageNotFound = (reply: FastifyReply) => sendPage(reply, 404, {
  title: 'Page not found',
  body: html`<p>There is no sign-in page at this address. Check the link you followed.</p>`,
});
