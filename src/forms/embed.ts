import type { Context } from '../context.js';
import { AppError } from '../errors/index.js';
import { escapeHtml } from '../shared/html/markup.js';
import { answeredForm } from './forms.js';
import { assertOpen } from './respond.js';
import { FORM_STYLE, formMarkup } from './render.js';
import { issueFormToken } from './tokens.js';

/**
 * A public form inside a site page (the sites' `form` block): the hosted page's markup with a fresh token,
 * posted to the hosted page, which answers. In the page's locale when the form has it. A form that is not
 * public, or gone, leaves a comment; a closed or full one, its message.
 */
export async function formBlockHtml(ctx: Context, uid: string, pageLocale: string): Promise<string> {
  const row = await answeredForm(ctx, uid);
  if (!row || row.form.access !== 'public') return '<!-- no public form has this uid -->';
  const locale = row.form.locales.includes(pageLocale) ? pageLocale : row.form.defaultLocale;
  try {
    await assertOpen(ctx, row, locale);
  } catch (err) {
    if (err instanceof AppError) return `<p class="form-closed">${escapeHtml(err.messages.join(' '))}</p>`;
    throw err;
  }
  const markup = formMarkup({ form: row.form, locale, action: `/forms/${row.form.uid}`, token: issueFormToken(ctx, row.form.id, null) });
  return `<style>${FORM_STYLE}</style><section class="atrium-form" lang="${escapeHtml(locale)}">${markup.text}</section>`;
}
