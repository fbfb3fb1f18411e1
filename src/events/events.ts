import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import type { BuiltInEventType } from '../shared/event-catalog.js';
import { businessEventWebhook } from './log.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';
import { businessEventCounts, businessEventTypeCounts, businessEvents } from '../tables/events.js';

export interface EventInput {
  realmId: number;
  userId: number | null;
  /** A built-in type, or a custom `<category>_<action>` type. */
  type: BuiltInEventType | (string & {});
  /** The admin who was impersonating the user when it happened. */
  impersonatorId?: number | null;
  properties?: Record<string, unknown>;
}

export type BusinessEvent = typeof businessEvents.$inferSelect;

/** An inserted event with what its webhook shows besides: its realm's uid and its user's email (spelled out: RETURNING sees the table by name). */
const withRealmAndEmail = {
  ...getTableColumns(businessEvents),
  realmUid: sql<string>`(select r.uid from realms r where r.id = business_events.realm_id)`,
  email: sql<string | null>`(select u.email from realm_users u where u.id = business_events.user_id)`,
};

/**
 * Records one business event of a realm user, at the context clock's now, and counts it with the user's;
 * the event goes to the webhook outbox with it, under its own type.
 */
export async function recordEvent(ctx: Pick<Context, 'db' | 'clock' | 'caches'>, event: EventInput): Promise<BusinessEvent> {
  const impersonatorId = event.impersonatorId ?? null;
  const impersonated = impersonatorId !== null;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(businessEvents).values({
      realmId: event.realmId,
      userId: event.userId,
      type: event.type,
      impersonated,
      impersonatorId,
      properties: event.properties ?? {},
      createdAt: ctx.clock.now(),
    }).returning(withRealmAndEmail);
    const { realmUid, email, ...recorded } = row;
    if (event.userId !== null) {
      await countEvent(tx, event.userId, impersonated ? 1 : 0);
      await countEventOfType(tx, { realmId: event.realmId, userId: event.userId, type: event.type, at: row.createdAt });
    }
    await emitWebhookEvent(tx, ctx.clock, businessEventWebhook(recorded, email, realmUid), ctx.caches);
    return recorded;
  });
}

/** One more event in a user's counts; a builder, so that a hot path can fold it into a statement of its own. */
export const countEvent = (db: Db, userId: number | SQL, impersonated: 0 | 1) => db.insert(businessEventCounts)
  .values({ userId, total: 1, impersonated })
  .onConflictDoUpdate({
    target: businessEventCounts.userId,
    set: {
      total: sql`${businessEventCounts.total} + 1`,
      impersonated: sql`${businessEventCounts.impersonated} + excluded.impersonated`,
    },
  });

/** One more event of a type in a user's counts, and its time as the type's last; a builder, like `countEvent`. */
export const countEventOfType = (db: Db, event: { realmId: number | SQL; userId: number | SQL; type: string | SQL; at: Date | SQL }) => db
  .insert(businessEventTypeCounts)
  .values({ realmId: event.realmId, userId: event.userId, type: event.type, count: 1, lastAt: event.at })
  .onConflictDoUpdate({
    target: [businessEventTypeCounts.userId, businessEventTypeCounts.type],
    set: {
      count: sql`${businessEventTypeCounts.count} + 1`,
      lastAt: sql`greatest(${businessEventTypeCounts.lastAt}, excluded.last_at)`,
    },
  });
