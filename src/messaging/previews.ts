import { and, eq, sql } from 'drizzle-orm';
import { assertMaySeePersonalData } from '../admin-auth/personal-data.js';
import type { ActingContext } from '../admin-auth/principal.js';
import { rowsOf } from '../db/rows.js';
import { forbidden, invalidField, notFound } from '../errors/index.js';
import { INT32_MAX } from '../http/models.js';
import { realms, realmUsers } from '../tables/realms.js';
import { bodyKindOf, requireCampaign, type Campaign } from './campaigns.js';
import { layoutOf, wrapInLayout } from './layout.js';
import { textOf } from './mailing.js';
import { RECIPIENT_COLUMNS, recipientOf, sampleScope, templateScope, type RecipientRow } from './recipients.js';
import { checkTemplates, renderTemplate, TemplateError, type TemplateKind } from './templates.js';
import type { Template } from 'liquidjs';

/** What rendering needs of a campaign, saved or not. */
type Draft = Pick<Campaign, 'subject' | 'body' | 'type' | 'useLayout' | 'realmId'>;

/** The body inside the realm's layout, in the recipient's language, when the mailing asks for it (as a delivery sends it). */
async function laidOut(ctx: ActingContext, draft: Draft, locale: string | null, body: string): Promise<string> {
  const layout = await layoutOf(ctx, draft);
  return layout ? wrapInLayout(layout, locale, body) : body;
}

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

async function renderFor(ctx: ActingContext, draft: Draft, userId: number) {
  const recipient = userId > INT32_MAX ? null : await recipientWhere(ctx, draft.realmId, sql`u.id = ${userId}`);
  if (!recipient) throw notFound('User');
  const rendered = render(draft, templateScope(recipient, `${ctx.config.baseUrl}/messaging/unsubscribe/preview`));
  return { ...rendered, body: await laidOut(ctx, draft, recipient.locale, rendered.body) };
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
 * realm's user with that address when there is one, else for a made-up user.
 */
export async function sendTest(ctx: ActingContext, campaignId: number, email: string) {
  const { campaign } = await requireCampaign(ctx, campaignId, 'messaging.send');
  const [known] = await ctx.db.select({ id: realmUsers.id }).from(realmUsers)
    .where(and(eq(realmUsers.realmId, campaign.realmId), sql`lower(${realmUsers.email}) = lower(${email})`)).limit(1);
  const recipient = known ? await recipientWhere(ctx, campaign.realmId, sql`u.id = ${known.id}`) : null;
  const rendered = render(campaign, recipient ? templateScope(recipient, `${ctx.config.baseUrl}/messaging/unsubscribe/test`) : sampleScope());
  const html = campaign.type === 'mailing' ? await laidOut(ctx, campaign, recipient?.locale ?? null, rendered.body) : undefined;
  await ctx.mail.send({
    to: email, subject: `[Test] ${rendered.subject}`, html, text: campaign.type === 'mailing' ? textOf(rendered.body) : rendered.body,
  });
  return { sent_to: email };
}
