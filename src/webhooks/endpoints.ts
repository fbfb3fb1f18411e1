import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import { assertMaySeePersonalData } from '../admin-auth/personal-data.js';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { textSearch } from '../db/like.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { orderOf, type ListParams } from '../db/sorting.js';
import { FieldErrors, invalidField, notFound } from '../errors/index.js';
import { targetProblem } from '../net/outbound.js';
import { realms } from '../tables/realms.js';
import { carriesPersonalData, checkEventTypes, type AdminEventTypes } from './event-types.js';
import type { WebhookEndpointInput, WebhookEndpointModel, WebhookEndpointWithSecret } from './schema.js';
import { newSecret, sealSecret } from './signing.js';
import { webhookEndpoints } from '../tables/webhooks.js';
import { endpointsChanged } from './subscribers.js';

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
type EndpointBody = Static<typeof WebhookEndpointModel>;
type Input = Static<typeof WebhookEndpointInput>;

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const MAX_DESCRIPTION = 1000;

export function endpointBody(endpoint: WebhookEndpoint, now: Date): EndpointBody {
  const overlap = endpoint.previousSecretUntil && endpoint.previousSecretUntil > now ? endpoint.previousSecretUntil : null;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    realm_uids: endpoint.realmUids ?? 'all',
    active: endpoint.active,
    disabled_reason: endpoint.disabledReason,
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
    failing_since: endpoint.failingSince?.toISOString() ?? null,
    previous_secret_expires_at: overlap?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export const ENDPOINT_SORTABLE = {
  id: webhookEndpoints.id, url: webhookEndpoints.url, created_at: webhookEndpoints.createdAt, updated_at: webhookEndpoints.updatedAt,
};

export async function listEndpoints(ctx: ActingContext, page: Page, query: ListParams): Promise<{ items: EndpointBody[]; total: number }> {
  ctx.actor.assertHolds('webhooks.read');
  const where = textSearch(query.query, [webhookEndpoints.url, webhookEndpoints.description]);
  const rows = await ctx.db.select({ endpoint: webhookEndpoints, total: totalCount }).from(webhookEndpoints).where(where)
    .orderBy(orderOf(ENDPOINT_SORTABLE, query, webhookEndpoints.id, 'desc'), desc(webhookEndpoints.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, webhookEndpoints, where);
  const now = ctx.clock.now();
  return { items: rows.map((r) => endpointBody(r.endpoint, now)), total };
}

/** The endpoint row, for the operations that go on to read or change it (no permission asked here). */
export async function requireEndpoint(ctx: Context, id: number): Promise<WebhookEndpoint> {
  const [endpoint] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}

export async function showEndpoint(ctx: ActingContext, id: number): Promise<EndpointBody> {
  ctx.actor.assertHolds('webhooks.read');
  return endpointBody(await requireEndpoint(ctx, id), ctx.clock.now());
}

function checkUrl(ctx: Context, raw: string): string {
  const url = raw.trim();
  if (!url) throw invalidField('url', "can't be blank");
  const problem = targetProblem(url, ctx.config.outboundAllowPrivate);
  if (problem) throw invalidField('url', problem);
  return url;
}

function checkDescription(raw: string): string {
  if (raw.length > MAX_DESCRIPTION) throw invalidField('description', `is too long (maximum is ${MAX_DESCRIPTION} characters)`);
  return raw.trim();
}

/** "all" is stored as null; a list names realms that exist (the first unknown one is named in the 422). */
async function checkRealms(ctx: Context, raw: string[] | 'all'): Promise<string[] | null> {
  if (raw === 'all') return null;
  const uids = [...new Set(raw.map((u) => u.trim()))];
  if (!uids.length) throw invalidField('realm_uids', 'must name at least one realm, or be "all"');
  const known = new Set((await ctx.db.select({ uid: realms.uid }).from(realms).where(inArray(realms.uid, uids))).map((r) => r.uid));
  const unknown = uids.find((u) => !known.has(u));
  if (unknown !== undefined) throw invalidField('realm_uids', `contains ${JSON.stringify(unknown.slice(0, 100))}, which is not a realm of this account`);
  return uids;
}

/**
 * An endpoint sent users' data is a way to read it: subscribing one to such events (or pointing one
 * elsewhere) needs `realm.users.read` on every realm it hears from, everywhere for "all" (DESIGN.md, "Personal data").
 */
function assertMayReceive(ctx: ActingContext, adminTypes: AdminEventTypes, eventTypes: string[], realmUids: string[] | null): void {
  if (!eventTypes.some((type) => carriesPersonalData(adminTypes, type))) return;
  for (const uid of realmUids ?? [null]) assertMaySeePersonalData(ctx.actor, uid);
}

export async function createEndpoint(ctx: ActingContext, adminTypes: AdminEventTypes, input: Input): Promise<Static<typeof WebhookEndpointWithSecret>> {
  ctx.actor.assertHolds('webhooks.manage');
  const errors = new FieldErrors();
  if (input.url === undefined) errors.add('url', "can't be blank");
  if (input.event_types === undefined) errors.add('event_types', "can't be blank");
  errors.throwIfAny();
  const url = checkUrl(ctx, input.url!);
  const description = checkDescription(input.description ?? '');
  const eventTypes = await checkEventTypes(ctx, adminTypes, input.event_types!);
  const realmUids = await checkRealms(ctx, input.realm_uids ?? 'all');
  assertMayReceive(ctx, adminTypes, eventTypes, realmUids);
  const secret = newSecret();
  const now = ctx.clock.now();
  const endpoint = await ctx.db.transaction(async (tx) => {
    // The secret is sealed with the row's id, known once the row exists.
    const [row] = await tx.insert(webhookEndpoints).values({
      url, description, eventTypes, realmUids, active: input.active ?? true, secretSealed: '', createdAt: now, updatedAt: now,
    }).returning();
    const [sealed] = await tx.update(webhookEndpoints).set({ secretSealed: sealSecret(ctx.config, row.id, secret) })
      .where(eq(webhookEndpoints.id, row.id)).returning();
    return sealed;
  });
  endpointsChanged(ctx);
  return { ...endpointBody(endpoint, now), secret };
}

/** PUT is partial. Turning an endpoint on again forgets why it was off and how long it had been failing. */
export async function updateEndpoint(ctx: ActingContext, adminTypes: AdminEventTypes, id: number, input: Input): Promise<EndpointBody> {
  ctx.actor.assertHolds('webhooks.manage');
  const current = await requireEndpoint(ctx, id);
  const now = ctx.clock.now();
  const changes: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: now };
  if (input.url !== undefined) changes.url = checkUrl(ctx, input.url);
  if (input.description !== undefined) changes.description = checkDescription(input.description);
  if (input.event_types !== undefined) changes.eventTypes = await checkEventTypes(ctx, adminTypes, input.event_types);
  if (input.realm_uids !== undefined) changes.realmUids = await checkRealms(ctx, input.realm_uids);
  assertMayReceive(ctx, adminTypes, changes.eventTypes ?? current.eventTypes, changes.realmUids === undefined ? current.realmUids : changes.realmUids);
  if (input.active !== undefined) {
    Object.assign(changes, { active: input.active, disabledReason: null, disabledAt: null });
    if (input.active) changes.failingSince = null;
  }
  const [updated] = await ctx.db.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).returning();
  if (!updated) throw notFound('Webhook endpoint');
  endpointsChanged(ctx);
  return endpointBody(updated, now);
}

export async function deleteEndpoint(ctx: ActingContext, id: number): Promise<void> {
  ctx.actor.assertHolds('webhooks.manage');
  const deleted = await ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id });
  if (!deleted.length) throw notFound('Webhook endpoint');
  endpointsChanged(ctx);
}

/**
 * A new secret; the current one becomes the previous one and keeps signing beside it for 24 hours.
 * Rotating again within those hours drops the oldest: at most two secrets sign.
 */
export async function rotateSecret(ctx: ActingContext, id: number): Promise<Static<typeof WebhookEndpointWithSecret>> {
  ctx.actor.assertHolds('webhooks.manage');
  const now = ctx.clock.now();
  const secret = newSecret();
  const [rotated] = await ctx.db.update(webhookEndpoints).set({
    previousSecretSealed: sql`${webhookEndpoints.secretSealed}`,
    previousSecretUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS),
    secretSealed: sealSecret(ctx.config, id, secret),
    updatedAt: now,
  }).where(eq(webhookEndpoints.id, id)).returning();
  if (!rotated) throw notFound('Webhook endpoint');
  return { ...endpointBody(rotated, now), secret };
}
