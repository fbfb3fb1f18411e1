import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { isLocale, type Locale } from '../i18n/locale.js';
import type { Mail } from '../mail/mail.js';
import { queueMail, queueTemplatedMail as queueForTemplate, type TemplatedMail } from '../mail/queue.js';
import { isTemplateKind, type TemplateKind } from './kinds.js';
import { renderContent, type RenderedMail } from './render.js';
import { SHIPPED } from './shipped.js';
import { assertMayUse, effectiveTemplate, memberAddress, renderPreview, type PreviewInput, type TemplateScope } from './templates.js';

const asMail = (to: string, rendered: RenderedMail): Mail => ({
  to, subject: rendered.subject, text: rendered.text, ...(rendered.html ? { html: rendered.html } : {}),
});

/**
 * Writes a queued mail with the template in force when it is sent (realm override, account default,
 * shipped wording) in its language. A saved template that fails now (a variable of a shape it did not
 * expect, a rendering past its limits) is logged without the variables and replaced by the shipped
 * wording: a code always goes out. The mail queue (mail/queue.ts) calls it through the context.
 */
export async function renderQueuedMail(ctx: Context, mail: TemplatedMail): Promise<Mail> {
  if (!isTemplateKind(mail.kind)) throw new Error(`no email template kind ${mail.kind}`);
  const locale: Locale = isLocale(mail.locale) ? mail.locale : 'en';
  const { source, content } = await effectiveTemplate(ctx, mail.kind, mail.realmId);
  if (source !== 'shipped') {
    try {
      return asMail(mail.to, await renderContent(content.format, content.locales[locale] ?? content.locales.en, mail.variables));
    } catch (err) {
      ctx.log.warn({ kind: mail.kind, realm_id: mail.realmId, source, locale, reason: (err as Error).message },
        'an email template failed to render: the shipped wording was sent instead');
    }
  }
  const shipped = SHIPPED[mail.kind];
  return asMail(mail.to, await renderContent(shipped.format, shipped.locales[locale], mail.variables));
}

/**
 * Queues a mail of a kind in the transaction `ctx.db` is, written from its template when it is sent. With
 * `insert: false` nothing is written, in the same time (an answer that must not tell whether an address has an account).
 */
export function queueTemplatedMail(ctx: Context, mail: TemplatedMail & { kind: TemplateKind; locale: Locale }, insert = true): Promise<void> {
  return queueForTemplate(ctx, mail, insert);
}

/** A preview mailed to the acting member's own address, through the mail queue. */
export async function testSend(ctx: ActingContext, scope: TemplateScope, kind: TemplateKind, input: PreviewInput): Promise<{ to: string }> {
  assertMayUse(ctx.actor, scope, 'templates.manage');
  const rendered = await renderPreview(ctx, scope, kind, input);
  const to = await memberAddress(ctx);
  await queueMail(ctx, asMail(to, rendered));
  return { to };
}

/** The language of a user's mails: the user's own, else `fallback` (the page's, or the realm's default language). */
export const mailLocale = (user: { locale: string | null } | undefined, fallback: Locale): Locale =>
  (user?.locale && isLocale(user.locale) ? user.locale : fallback);
