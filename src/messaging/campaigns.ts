import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Permission } from '../admin-auth/permissions.js';
import type { Context } from '../context.js';
import { textSearch } from '../db/like.js';
import { totalCount, type Page } from '../db/paging.js';
import { orderOf } from '../db/sorting.js';
import { FieldErrors, forbidden, invalidField, notFound } from '../errors/index.js';
import { realms } from '../tables/realms.js';
import { countRecipients, segmentListOf, segmentRefsOf, segmentsOfRealm, type SegmentRef } from './audience.js';
import { sampleScope } from './recipients.js';
import { CAMPAIGN_TYPES, NAME_MAX, type CampaignChanges, type CampaignInput, type CampaignModel } from './schema.js';
import { campaignSegments, campaigns } from '../tables/messaging.js';
import { campaignLayout } from './layout.js';
import { checkTemplates, renderTemplate, TemplateError, type TemplateKind } from './templates.js';

export type Campaign = typeof campaigns.$inferSelect;
export type CampaignBody = Static<typeof CampaignModel>;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];

/** A campaign with what its answers show beside its row. */
export interface CampaignView {
  campaign: Campaign;
  realmUid: string;
  sentCount: number;
  lastSent: Date | null;
  segments: SegmentRef[];
}

export const bodyKindOf = (type: string): TemplateKind => (type === 'mailing' ? 'html' : 'text');

export function campaignBody(view: CampaignView): CampaignBody {
  const { campaign } = view;
  return {
    id: campaign.id,
    uuid: campaign.uuid,
    realm_uid: view.realmUid,
    name: campaign.name,
    type: campaign.type as CampaignType,
    subject: campaign.subject,
    body: campaign.body,
    sent_count: view.sentCount,
    last_sent: view.lastSent?.toISOString() ?? null,
    segments_enabled: campaign.segmentsEnabled,
    segments: view.segments,
    segment_list: segmentListOf(view.segments),
    use_layout: campaign.useLayout,
    created_at: campaign.createdAt.toISOString(),
    updated_at: campaign.updatedAt.toISOString(),
  };
}

const sentCount = sql<number>`(select coalesce(sum(d.sent_count), 0) from campaign_deliveries d where d.campaign_id = ${campaigns.id})`.mapWith(Number);
// A delivery counts as sent once it started; a scheduled or canceled one has not.
const lastSent = sql<string | null>`(select max(d.starts_at) from campaign_deliveries d
  where d.campaign_id = ${campaigns.id} and d.status not in ('scheduled', 'canceled'))`;
const hasDeliveries = sql`exists (select 1 from campaign_deliveries d where d.campaign_id = ${campaigns.id})`;

async function viewsOf(ctx: Context, rows: { campaign: Campaign; realmUid: string; sentCount: number; lastSent: string | Date | null }[]): Promise<CampaignView[]> {
  const segments = await segmentRefsOf(ctx, rows.map((r) => r.campaign.id));
  return rows.map((r) => ({
    campaign: r.campaign, realmUid: r.realmUid, sentCount: r.sentCount,
    lastSent: r.lastSent === null ? null : new Date(r.lastSent), segments: segments.get(r.campaign.id) ?? [],
  }));
}

const selection = { campaign: campaigns, realmUid: realms.uid, sentCount, lastSent };

/** The campaign with this id, if the acting member holds `permission` on its realm (403 otherwise, 404 when there is none). */
export async function requireCampaign(ctx: ActingContext, id: number, permission: Permission): Promise<CampaignView> {
  const rows = await ctx.db.select(selection).from(campaigns).innerJoin(realms, eq(realms.id, campaigns.realmId)).where(eq(campaigns.id, id));
  if (!rows.length) throw notFound('Campaign');
  if (!ctx.actor.holdsOn(permission, rows[0].realmUid)) throw forbidden();
  return (await viewsOf(ctx, rows))[0];
}

export interface CampaignListQuery {
  type?: string;
  filtered?: string;
  query?: string;
  sort_by?: string;
  order?: string;
}

const SORTABLE = { name: campaigns.name, type: campaigns.type, created_at: campaigns.createdAt, updated_at: campaigns.updatedAt };

/** A page of the campaigns of the realms `visible` names (null: every realm), most recently changed first. */
export async function listCampaigns(ctx: ActingContext, page: Page, query: CampaignListQuery) {
  const visible = ctx.actor.targetsOf('messaging.read');
  const where = and(
    query.type === undefined ? undefined : eq(campaigns.type, query.type),
    query.filtered === 'true' || query.filtered === '1' ? hasDeliveries : undefined,
    textSearch(query.query, [campaigns.name, campaigns.subject]),
    visible ? inArray(realms.uid, visible.length ? visible : ['']) : undefined,
  );
  const rows = await ctx.db.select({ ...selection, total: totalCount }).from(campaigns).innerJoin(realms, eq(realms.id, campaigns.realmId))
    .where(where).orderBy(orderOf(SORTABLE, query, campaigns.updatedAt, 'desc'), desc(campaigns.id)).limit(page.perPage).offset(page.offset);
  // A page past the end has no row to carry the total.
  const [{ total }] = rows.length || page.offset === 0 ? [{ total: rows[0]?.total ?? 0 }]
    : await ctx.db.select({ total: count() }).from(campaigns).innerJoin(realms, eq(realms.id, campaigns.realmId)).where(where);
  return { items: (await viewsOf(ctx, rows)).map(campaignBody), total };
}

/** Renders the templates once for a made-up user, so that a template that loops or grows without end is refused on save. */
function tryRendering(subject: string, body: string, type: string): void {
  const parsed = checkTemplates(subject, body, bodyKindOf(type));
  const scope = sampleScope();
  const errors = new FieldErrors();
  for (const [field, templates, kind] of [['subject', parsed.subject, 'text'], ['body', parsed.body, parsed.bodyKind]] as const) {
    try {
      renderTemplate(templates, kind, scope);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      errors.add(field, `cannot be rendered: ${err.message}`);
    }
  }
  errors.throwIfAny();
}

interface Checked {
  name?: string;
  segments?: SegmentRef[];
}

async function check(ctx: Context, realmId: number, input: CampaignChanges, current: Campaign | null): Promise<Checked> {
  const errors = new FieldErrors();
  const name = input.name?.trim();
  if (name !== undefined) {
    if (!name) errors.add('name', "can't be blank");
    else if (name.length > NAME_MAX) errors.add('name', `is too long (maximum is ${NAME_MAX} characters)`);
  }
  errors.throwIfAny();
  const type = input.type ?? current?.type ?? 'mailing';
  tryRendering(input.subject ?? current?.subject ?? '', input.body ?? current?.body ?? '', type);
  if (input.use_layout ?? current?.useLayout) {
    if (type !== 'mailing') throw invalidField('use_layout', 'is only for mailings');
    // Refused now rather than when a delivery is asked for.
    if (input.use_layout) await campaignLayout(ctx, realmId);
  }
  const segments = input.segment_ids ? await segmentsOfRealm(ctx, realmId, [...new Set(input.segment_ids)]) : undefined;
  return { name, segments };
}

async function realmForWriting(ctx: ActingContext, uid: string) {
  const [realm] = await ctx.db.select().from(realms).where(eq(realms.uid, uid));
  if (!realm) throw invalidField('realm_uid', 'is not a realm');
  if (!ctx.actor.holdsOn('messaging.send', realm.uid)) throw forbidden();
  return realm;
}

async function writeSegments(tx: Pick<Context, 'db'>['db'], campaignId: number, segments: SegmentRef[] | undefined): Promise<void> {
  if (!segments) return;
  await tx.delete(campaignSegments).where(eq(campaignSegments.campaignId, campaignId));
  if (segments.length) {
    await tx.insert(campaignSegments).values(segments.map((s, position) => ({ campaignId, segmentId: s.id, position })));
  }
}

function requireSegmentsWhenEnabled(enabled: boolean, segments: SegmentRef[] | undefined, kept: SegmentRef[]): void {
  if (enabled && !(segments ?? kept).length) throw invalidField('segment_ids', 'must name at least one segment when segments_enabled is true');
}

export async function createCampaign(ctx: ActingContext, input: Static<typeof CampaignInput>): Promise<CampaignBody> {
  const realm = await realmForWriting(ctx, input.realm_uid);
  const checked = await check(ctx, realm.id, input, null);
  const enabled = input.segments_enabled ?? false;
  requireSegmentsWhenEnabled(enabled, checked.segments, []);
  const now = ctx.clock.now();
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(campaigns).values({
      realmId: realm.id, name: checked.name!, type: input.type, subject: input.subject, body: input.body,
      segmentsEnabled: enabled, useLayout: input.use_layout ?? false, createdAt: now, updatedAt: now,
    }).returning({ id: campaigns.id });
    await writeSegments(tx, row.id, checked.segments);
    return row.id;
  });
  return campaignBody(await requireCampaign(ctx, id, 'messaging.send'));
}

/** Partial: attributes left out keep their value; `segment_ids` replaces the list. The realm cannot change. */
export async function updateCampaign(ctx: ActingContext, id: number, input: CampaignChanges): Promise<CampaignBody> {
  const view = await requireCampaign(ctx, id, 'messaging.send');
  const current = view.campaign;
  const checked = await check(ctx, current.realmId, input, current);
  const enabled = input.segments_enabled ?? current.segmentsEnabled;
  requireSegmentsWhenEnabled(enabled, checked.segments, view.segments);
  await ctx.db.transaction(async (tx) => {
    await tx.update(campaigns).set({
      name: checked.name, type: input.type, subject: input.subject, body: input.body,
      segmentsEnabled: enabled, useLayout: input.use_layout, updatedAt: ctx.clock.now(),
    }).where(eq(campaigns.id, id));
    await writeSegments(tx, id, checked.segments);
  });
  return campaignBody(await requireCampaign(ctx, id, 'messaging.send'));
}

/** Removes the campaign with its deliveries and their messages; a delivery under way stops at its next batch. */
export async function deleteCampaign(ctx: ActingContext, id: number): Promise<void> {
  await requireCampaign(ctx, id, 'messaging.send');
  await ctx.db.delete(campaigns).where(eq(campaigns.id, id));
}

/** The campaign's audience counted now (`messaging.read` on its realm). */
export async function campaignRecipientCount(ctx: ActingContext, id: number): Promise<{ recipients: number }> {
  const { campaign, segments } = await requireCampaign(ctx, id, 'messaging.read');
  if (campaign.segmentsEnabled && !segments.length) return { recipients: 0 };
  return { recipients: await countRecipients(ctx, campaign.realmId, campaign.segmentsEnabled ? segments.map((s) => s.id) : null) };
}
