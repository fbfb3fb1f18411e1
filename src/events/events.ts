import { sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import type { BuiltInEventType } from './catalog.js';
import { businessEventCounts, businessEvents } from './tables.js';

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
      await tx.insert(businessEventCounts).values({ userId: event.userId, total: 1, impersonated: impersonated ? 1 : 0 }).onConflictDoUpdate({
        target: businessEventCounts.userId,
        set: {
          total: sql`${businessEventCounts.total} + 1`,
          impersonated: sql`${businessEventCounts.impersonated} + excluded.impersonated`,
        },
      });
    }
    return row;
  });
}
