import { eq } from 'drizzle-orm';
import { effectiveTemplate } from '../email-templates/templates.js';
import { renderContent } from '../email-templates/render.js';
import { invalidField } from '../errors/index.js';
import { LOCALES, isLocale, type Locale } from '../i18n/locale.js';
import type { Context } from '../context.js';
import { TemplateError, templateProblem } from '../shared/liquid.js';
import { realms } from '../tables/realms.js';

/**
 * A realm's `campaign_layout` made ready to wrap a mailing, in every language: the HTML before the
 * campaign's and after it. Rendered (Liquid, MJML, CSS inlined with juice) once, when a run is asked
 * for, and copied into the run, so that a later edit of the layout changes no run already asked for.
 * Each recipient's message is then `before + body + footer + after`, with no rendering of the layout.
 */
export type CampaignLayout = Record<Locale, { before: string; after: string }>;

// What the layout writes where `{{ content }}` is: letters only, so that escaping leaves it as it is.
const CONTENT_MARK = 'atriumcampaigncontentc0ffee';

/** The layout in force for the realm (its override, else the account's, else the shipped one), ready to wrap. 422 when it cannot be used. */
export async function campaignLayout(ctx: Context, realmId: number): Promise<CampaignLayout> {
  const [realm] = await ctx.db.select({ uid: realms.uid, name: realms.name }).from(realms).where(eq(realms.id, realmId));
  const { content } = await effectiveTemplate(ctx, 'campaign_layout', realmId);
  const layout = {} as CampaignLayout;
  for (const locale of LOCALES) {
    try {
      const { html } = await renderContent(content.format, content.locales[locale], { content: CONTENT_MARK, realm: { uid: realm.uid, name: realm.name } });
      const parts = html.split(CONTENT_MARK);
      if (parts.length !== 2) throw new TemplateError('it must write {{ content }} once');
      layout[locale] = { before: parts[0], after: parts[1] };
    } catch (err) {
      throw invalidField('use_layout', `the realm's campaign_layout email template (${locale}) cannot be used: ${templateProblem(err)}`);
    }
  }
  return layout;
}

/** The layout a campaign's mailings go in, or null: a notification, or a mailing without `use_layout`. */
export function layoutOf(ctx: Context, campaign: { type: string; useLayout: boolean; realmId: number }): Promise<CampaignLayout | null> {
  return campaign.useLayout && campaign.type === 'mailing' ? campaignLayout(ctx, campaign.realmId) : Promise.resolve(null);
}

/** The mailing's HTML inside the layout, in the recipient's language. */
export function wrapInLayout(layout: CampaignLayout, locale: string | null, html: string): string {
  const { before, after } = layout[isLocale(locale) ? locale : 'en'];
  return `${before}${html}${after}`;
}
