import { and, asc, eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import { FieldErrors, invalid, invalidField, notFound } from '../errors/index.js';
import { uniqueViolation } from '../db/unique.js';
import { siteTemplates } from '../tables/sites.js';
import { SITE_LIMITS, type TemplateInput, type TemplateModel } from './schema.js';
import { liquidProblem } from './liquid.js';
import { draftChanged, requireSite } from './sites.js';
import { assertSiteItemUnlocked } from './site-locks.js';

export type TemplateKind = 'layout' | 'snippet';
type Template = typeof siteTemplates.$inferSelect;
export type TemplateBody = Static<typeof TemplateModel>;

/** Layout and snippet names: what `{% render %}` and a page's `layout` name them by. */
export const TEMPLATE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const templateBody = (t: Template): TemplateBody => ({
  id: t.id, kind: t.kind, name: t.name, source: t.source, created_at: t.createdAt.toISOString(), updated_at: t.updatedAt.toISOString(),
});

export async function listTemplates(ctx: ActingContext, siteUid: string, kind: TemplateKind): Promise<TemplateBody[]> {
  const { site } = await requireSite(ctx, siteUid, 'site.read');
  const rows = await ctx.db.select().from(siteTemplates).where(and(eq(siteTemplates.siteId, site.id), eq(siteTemplates.kind, kind))).orderBy(asc(siteTemplates.name));
  return rows.map(templateBody);
}

export async function requireTemplate(ctx: ActingContext, siteUid: string, kind: TemplateKind, id: number, permission: 'site.read' | 'site.write') {
  const { site } = await requireSite(ctx, siteUid, permission);
  const [row] = await ctx.db.select().from(siteTemplates).where(and(eq(siteTemplates.id, id), eq(siteTemplates.siteId, site.id), eq(siteTemplates.kind, kind)));
  if (!row) throw notFound(kind === 'layout' ? 'Layout' : 'Snippet');
  return { site, template: row };
}

function checked(input: Static<typeof TemplateInput>, creating: boolean): { name?: string; source?: string } {
  const errors = new FieldErrors();
  const name = input.name?.trim();
  if (creating || input.name !== undefined) {
    if (!name) errors.add('name', "can't be blank");
    else if (!TEMPLATE_NAME.test(name)) errors.add('name', 'may contain only lower-case letters, digits, "-" and "_" (at most 64)');
  }
  if (creating && input.source === undefined) errors.add('source', "can't be blank");
  errors.throwIfAny();
  const problem = input.source === undefined ? null : liquidProblem(input.source);
  if (problem) throw invalid([{ field: 'source', messages: [problem] }]);
  return { name, source: input.source };
}

const nameTaken = (err: unknown): never => {
  if (uniqueViolation(err) !== null) throw invalidField('name', 'has already been taken');
  throw err;
};

export async function createTemplate(ctx: ActingContext, siteUid: string, kind: TemplateKind, input: Static<typeof TemplateInput>): Promise<TemplateBody> {
  const { site } = await requireSite(ctx, siteUid, 'site.write');
  const { name, source } = checked(input, true);
  const count = await ctx.db.$count(siteTemplates, eq(siteTemplates.siteId, site.id));
  if (count >= SITE_LIMITS.templates) throw invalidField('base', `a site holds at most ${SITE_LIMITS.templates} layouts and snippets`);
  const now = ctx.clock.now();
  const [row] = await ctx.db.insert(siteTemplates).values({ siteId: site.id, kind, name: name!, source: source!, createdAt: now, updatedAt: now })
    .returning().catch(nameTaken);
  await draftChanged(ctx, site.id);
  return templateBody(row);
}

export async function updateTemplate(ctx: ActingContext, siteUid: string, kind: TemplateKind, id: number, input: Static<typeof TemplateInput>, override = false): Promise<TemplateBody> {
  const { site, template } = await requireTemplate(ctx, siteUid, kind, id, 'site.write');
  await assertSiteItemUnlocked(ctx, 'site_template', String(template.id), override);
  const { name, source } = checked(input, false);
  const [row] = await ctx.db.update(siteTemplates).set({ name, source, updatedAt: ctx.clock.now() })
    .where(eq(siteTemplates.id, template.id)).returning().catch(nameTaken);
  await draftChanged(ctx, site.id);
  return templateBody(row);
}

export async function deleteTemplate(ctx: ActingContext, siteUid: string, kind: TemplateKind, id: number, override = false): Promise<void> {
  const { site, template } = await requireTemplate(ctx, siteUid, kind, id, 'site.write');
  await assertSiteItemUnlocked(ctx, 'site_template', String(template.id), override);
  await ctx.db.delete(siteTemplates).where(eq(siteTemplates.id, template.id));
  await draftChanged(ctx, site.id);
}
