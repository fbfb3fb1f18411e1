import { and, eq, sql } from 'drizzle-orm';
import type { ActingContext } from '../admin-auth/principal.js';
import { rowsOf } from '../db/rows.js';
import { invalidField, notFound } from '../http/errors.js';
import { INT32_MAX } from '../http/models.js';
import { realmUsers } from '../realms/tables.js';
import { bodyKindOf, requireCampaign, type Campaign } from './campaigns.js';
import { textOf } from './mailing.js';
import { RECIPIENT_COLUMNS, recipientOf, sampleScope, templateScope, type RecipientRow } from './recipients.js';
import { checkTemplates, renderTemplate, TemplateError } from './templates.js';

function render(campaign: Campaign, scope: object) {
  const templates = checkTemplates(campaign.subject, campaign.body, bodyKindOf(campaign.type));
  try {
    return {
      subject: renderTemplate(templates.subject, 'text', scope).replace(/[\r\n]+/g, ' ').trim(),
      body: renderTemplate(templates.body, templates.bodyKind, scope),
    };
  } catch (err) {
    if (err instanceof TemplateError) throw invalidField('body', `cannot be rendered for this user: ${err.message}`);
    throw err;
  }
}

async function recipientWhere(ctx: ActingContext, realmId: number, condition: ReturnType<typeof sql>) {
  const [row] = rowsOf<RecipientRow>(await ctx.db.execute(sql`select ${sql.raw(RECIPIENT_COLUMNS)} from realm_users u
    where u.realm_id = ${realmId} and ${condition} limit 1`));
  return row ? recipientOf(row) : null;
}

/** The campaign's subject and body rendered for one user of its realm (404 when the realm has no such user). */
export async function previewCampaign(ctx: ActingContext, campaignId: number, userId: number) {
  const { campaign } = await requireCampaign(ctx, campaignId, 'messaging.read');
  const recipient = userId > INT32_MAX ? null : await recipientWhere(ctx, campaign.realmId, sql`u.id = ${userId}`);
  if (!recipient) throw notFound('User');
  return render(campaign, templateScope(recipient, `${ctx.config.baseUrl}/messaging/unsubscribe/preview`));
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
  const html = campaign.type === 'mailing' ? rendered.body : undefined;
  await ctx.mail.send({
    to: email, subject: `[Test] ${rendered.subject}`, html, text: html === undefined ? rendered.body : textOf(rendered.body),
  });
  return { sent_to: email };
}
