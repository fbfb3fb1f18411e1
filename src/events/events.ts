import { sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import type { BuiltInEventType } from './catalog.js';
import { businessEventCounts, businessEventTypeCounts, businessEvents } from './tables.js';

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

/** Records one business event of a realm user, at the context clock's now, and counts it with the user's. */
export async function recordEvent(ctx: Pick<Context, 'db' | 'clock'>, event: EventInput): Promise<BusinessEvent> {
  const impersonatorId = event.impersonatorId ?? null;
  const impersonated = impersonatorId !== null;
  return ctx.db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const [row] = await tx.insert(businessEvents).values({
      realmId: event.realmId,
      userId: event.userId,
      type: event.type,
      impersonated,
      impersonatorId,
      properties: event.properties ?? {},
      createdAt: ctx.clock.now(),
    }).returning();
    if (event.userId !== null) {
      await countEvent(tx, event.userId, impersonated ? 1 : 0);
      await countEventOfType(tx, { realmId: event.realmId, userId: event.userId, type: event.type, at: row.createdAt });
    }
    return row;
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
