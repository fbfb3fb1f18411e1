import { and, eq, sql } from 'drizzle-orm';
import { assertMaySeePersonalData } from '../admin-auth/personal-data.js';
import type { ActingContext } from '../admin-auth/principal.js';
import { rowsOf } from '../db/rows.js';
import { forbidden, invalidField, notFound } from '../errors/index.js';
import { INT32_MAX } from '../http/models.js';
import { realms, realmUsers } from '../tables/realms.js';
import { bodyKindOf, requireCampaign, type Campaign } from './campaigns.js';
import { layoutOf, wrapInLayout } from './layout.js';
import { mailingParts, sampleLinks, type MessageLinks } from './mailing.js';
import { RECIPIENT_COLUMNS, recipientOf, sampleScope, templateScope, type RecipientRow } from './recipients.js';
import { checkTemplates, renderTemplate, TemplateError, type TemplateKind } from './templates.js';
import type { Template } from 'liquidjs';

/** What rendering needs of a campaign, saved or not. */
type Draft = Pick<Campaign, 'subject' | 'body' | 'type' | 'useLayout' | 'realmId'>;

function render(campaign: Draft, scope: object) {
  const templates = checkTemplates(campaign.subject, campaign.body, bodyKindOf(campaign.type));
  const rendered = (field: 'subject' | 'body', parsed: Template[], kind: TemplateKind) => {
    try {
      return renderTemplate(parsed, kind, scope);
    } catch (err) {
      if (err instanceof TemplateError) throw invalidField(field, `cannot be rendered for this user: ${err.message}`);
      throw err;
    }
  };
  return {
    subject: rendered('subject', templates.subject, 'text').replace(/[\r\n]+/g, ' ').trim(),
    body: rendered('body', templates.body, templates.bodyKind),
  };
}

async function recipientWhere(ctx: ActingContext, realmId: number, condition: ReturnType<typeof sql>) {
  const [row] = rowsOf<RecipientRow>(await ctx.db.execute(sql`select ${sql.raw(RECIPIENT_COLUMNS)} from realm_users u
    where u.realm_id = ${realmId} and ${condition} limit 1`));
  return row ? recipientOf(row) : null;
}

/**
 * The rendered subject and body as a message carries them: `body` inside the realm's layout when the mailing asks for it,
 * a mailing's HTML and text parts composed as a delivery composes them (`links` standing for the recipient's own),
 * a notification's body as its text.
 */
async function messageOf(ctx: ActingContext, draft: Draft, locale: string | null, rendered: ReturnType<typeof render>, links: MessageLinks) {
  if (draft.type !== 'mailing') return { ...rendered, html: null, text: rendered.body };
  const layout = await layoutOf(ctx, draft);
  return { ...rendered, body: layout ? wrapInLayout(layout, locale, rendered.body) : rendered.body, ...mailingParts(rendered.body, layout, locale, links) };
}

async function renderFor(ctx: ActingContext, draft: Draft, userId: number) {
  const recipient = userId > INT32_MAX ? null : await recipientWhere(ctx, draft.realmId, sql`u.id = ${userId}`);
  if (!recipient) throw notFound('User');
  const links = sampleLinks(ctx.config);
  return messageOf(ctx, draft, recipient.locale, render(draft, templateScope(recipient, links.unsubscribe)), links);
}

/**
 * The campaign's subject and body rendered for one user of its realm (404 when the realm has no such user).
 * It shows that user's data: realm.users.read on the realm too.
 */
export async function previewCampaign(ctx: ActingContext, campaignId: number, userId: number) {
  const { campaign, realmUid } = await requireCampaign(ctx, campaignId, 'messaging.read');
  assertMaySeePersonalData(ctx.actor, realmUid);
  return renderFor(ctx, campaign, userId);
}

/**
 * An unsaved campaign's subject and body rendered for one user of the realm, exactly as a saved one's
 * would be (realm.users.read too, like it). The permissions are checked before the realm is looked up: the
 * answer tells nothing of realms the member does not reach.
 */
export async function previewDraft(ctx: ActingContext, draft: Pick<Draft, 'subject' | 'body' | 'type'> & { realm_uid: string; user_id: number; use_layout?: boolean }) {
  if (!ctx.actor.holdsOn('messaging.read', draft.realm_uid)) throw forbidden();
  assertMaySeePersonalData(ctx.actor, draft.realm_uid);
  const [realm] = await ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.uid, draft.realm_uid));
  if (!realm) throw invalidField('realm_uid', 'is not a realm');
  return renderFor(ctx, { ...draft, useLayout: draft.use_layout ?? false, realmId: realm.id }, draft.user_id);
}

/**
 * Sends one rendered message to an address, marked as a test and counted nowhere: rendered for the
 * realm's user with that address when there is one, else for a made-up user; the same parts as its preview.
 */
export async function sendTest(ctx: ActingContext, campaignId: number, email: string) {
  const { campaign } = await requireCampaign(ctx, campaignId, 'messaging.send');
  const [known] = await ctx.db.select({ id: realmUsers.id }).from(realmUsers)
    .where(and(eq(realmUsers.realmId, campaign.realmId), sql`lower(${realmUsers.email}) = lower(${email})`)).limit(1);
  const recipient = known ? await recipientWhere(ctx, campaign.realmId, sql`u.id = ${known.id}`) : null;
  const links = sampleLinks(ctx.config);
  const rendered = render(campaign, recipient ? templateScope(recipient, links.unsubscribe) : sampleScope());
  const message = await messageOf(ctx, campaign, recipient?.locale ?? null, rendered, links);
  await ctx.mail.send({ to: email, subject: `[Test] ${message.subject}`, html: message.html ?? undefined, text: message.text });
  return { sent_to: email };
}
