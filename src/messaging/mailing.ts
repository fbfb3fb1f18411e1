import type { Config } from '../config.js';
import type { Mail } from '../mail/mail.js';
import { escapeHtml } from '../shared/html/layout.js';
import { messageToken, pixelPath, unsubscribePath } from './links.js';
import { wrapInLayout, type CampaignLayout } from './layout.js';
import { templateScope, type Recipient } from './recipients.js';
import { renderTemplate, TEMPLATE_LIMITS, type CampaignTemplates } from './templates.js';

/** Where a message's links go; the unsubscribe address also goes in the List-Unsubscribe header. */
export function messageLinks(config: Config, messageId: number) {
  const token = messageToken(config, messageId);
  return { pixel: `${config.baseUrl}${pixelPath(token)}`, unsubscribe: `${config.baseUrl}${unsubscribePath(token)}` };
}

/**
 * The same Message-ID every time the message of this delivery to this user is composed (a resend of
 * an in-doubt message too), so a mailbox that got it already can tell the second copy.
 */
export function campaignMessageId(config: Config, deliveryUuid: string, userUuid: string): string {
  return `<${deliveryUuid}.${userUuid}@${new URL(config.baseUrl).hostname}>`;
}

const TAG = /<[^>]*>/g;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/** A readable plain-text part of an HTML body. */
export function textOf(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/h\d|\/li|\/tr)\b[^>]*>/gi, '\n')
    .replace(TAG, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e])
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface MailingMessage {
  messageId: number;
  deliveryUuid: string;
  recipient: Recipient;
}

/** Where a message's tracking pixel and unsubscribe link go. */
export type MessageLinks = ReturnType<typeof messageLinks>;

/**
 * The links of a message that is not one of a delivery (a preview, a test): the same addresses with `preview` for the
 * token, which opens nothing and unsubscribes no one.
 */
export function sampleLinks(config: Config): MessageLinks {
  return { pixel: `${config.baseUrl}${pixelPath('preview')}`, unsubscribe: `${config.baseUrl}${unsubscribePath('preview')}` };
}

/**
 * A mailing's rendered body as sent: the HTML part (the body with an unsubscribe link and a tracking pixel at its end,
 * in the realm's layout when it has one) and the text part. Deliveries, previews and tests all compose it here.
 */
export function mailingParts(body: string, layout: CampaignLayout | null, locale: string | null, links: MessageLinks): { html: string; text: string } {
  const footer = `<p style="font-size:12px;color:#666">To stop receiving these messages, <a href="${escapeHtml(links.unsubscribe)}">unsubscribe</a>.</p>`;
  const pixel = `<img src="${escapeHtml(links.pixel)}" width="1" height="1" alt="" style="display:block;border:0">`;
  const html = `${body}\n${footer}\n${pixel}`;
  return {
    html: layout ? wrapInLayout(layout, locale, html) : html,
    text: `${textOf(body)}\n\nTo stop receiving these messages, unsubscribe: ${links.unsubscribe}\n`,
  };
}

/**
 * One mailing rendered for its recipient: its parts (`mailingParts`), and the one-click unsubscribe headers (RFC 8058)
 * large mailbox providers require of bulk mail.
 */
export function composeMailing(config: Config, templates: CampaignTemplates, layout: CampaignLayout | null, message: MailingMessage): Mail {
  const links = messageLinks(config, message.messageId);
  const scope = templateScope(message.recipient, links.unsubscribe);
  const limit = TEMPLATE_LIMITS.sendingRenderMs;
  const subject = renderTemplate(templates.subject, 'text', scope, limit).replace(/[\r\n]+/g, ' ').trim();
  const body = renderTemplate(templates.body, 'html', scope, limit);
  return {
    to: message.recipient.email,
    subject,
    ...mailingParts(body, layout, message.recipient.locale, links),
    messageId: campaignMessageId(config, message.deliveryUuid, message.recipient.uuid),
    headers: {
      'List-Unsubscribe': `<${links.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
