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
 * Records one business event of a realm user, at the context clock's now, and counts it with the user's
 * (one statement: `eventWrites`); the event goes to the webhook outbox with it, under its own type.
 */
export async function recordEvent(ctx: Pick<Context, 'db' | 'clock' | 'caches' | 'database'>, event: EventInput): Promise<BusinessEvent> {
  const impersonatorId = event.impersonatorId ?? null;
  return ctx.db.transaction(async (tx) => {
    const { values, counts } = eventWrites(tx, {
      realmId: event.realmId, userId: event.userId, type: event.type, at: ctx.clock.now(),
      impersonatorId, properties: event.properties ?? {},
    });
    const [row] = await tx.with(...counts).insert(businessEvents).values(values).returning(withRealmAndEmail);
    const { realmUid, email, ...recorded } = row;
    await emitWebhookEvent(ctx, tx, businessEventWebhook(recorded, email, realmUid));
    return recorded;
  });
}

interface EventWrite {
  realmId: number | SQL;
  userId: number | SQL | null;
  type: string | SQL;
  at: Date | SQL;
  impersonatorId?: number | null;
  properties?: Record<string, unknown>;
}

/**
 * What recording an event writes, as builders a statement is made of: the event's row, and the
 * user's counts as data-modifying CTEs (none without a user). `recordEvent` inserts the row after the
 * counts; a hot path (a sign-in) folds all of it into a statement of its own.
 */
export function eventWrites(db: Db, event: EventWrite) {
  const impersonated = event.impersonatorId != null;
  const values = {
    realmId: event.realmId, userId: event.userId, type: event.type, impersonated, impersonatorId: event.impersonatorId ?? null,
    properties: event.properties ?? {}, createdAt: event.at,
  };
  if (event.userId === null) return { values, counts: [] };
  return {
    values,
    counts: [
      db.$with('event_counted').as(countEvent(db, event.userId, impersonated ? 1 : 0).returning({ userId: businessEventCounts.userId })),
      db.$with('event_counted_of_type').as(countEventOfType(db, { realmId: event.realmId, userId: event.userId, type: event.type, at: event.at })
        .returning({ userId: businessEventTypeCounts.userId })),
    ],
  };
}

/** One more event in a user's counts; a builder, so that a hot path can fold it into a statement of its own. */
const countEvent = (db: Db, userId: number | SQL, impersonated: 0 | 1) => db.insert(businessEventCounts)
  .values({ userId, total: 1, impersonated })
  .onConflictDoUpdate({
    target: businessEventCounts.userId,
    set: {
      total: sql`${businessEventCounts.total} + 1`,
      impersonated: sql`${businessEventCounts.impersonated} + excluded.impersonated`,
    },
  });

/** One more event of a type in a user's counts, and its time as the type's last; a builder, like `countEvent`. */
const countEventOfType = (db: Db, event: { realmId: number | SQL; userId: number | SQL; type: string | SQL; at: Date | SQL }) => db
  .insert(businessEventTypeCounts)
  .values({ realmId: event.realmId, userId: event.userId, type: event.type, count: 1, lastAt: event.at })
  .onConflictDoUpdate({
    target: [businessEventTypeCounts.userId, businessEventTypeCounts.type],
    set: {
      count: sql`${businessEventTypeCounts.count} + 1`,
      lastAt: sql`greatest(${businessEventTypeCounts.lastAt}, excluded.last_at)`,
    },
  });
