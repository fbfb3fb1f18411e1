import type { Context } from '../context.js';
import type { BuiltInEventType } from './catalog.js';
import { businessEvents } from './tables.js';

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

/** Records one business event of a realm user, at the context clock's now. */
export async function recordEvent(ctx: Pick<Context, 'db' | 'clock'>, event: EventInput): Promise<BusinessEvent> {
  const impersonatorId = event.impersonatorId ?? null;
  const [row] = await ctx.db.insert(businessEvents).values({
    realmId: event.realmId,
    userId: event.userId,
    type: event.type,
    impersonated: impersonatorId !== null,
    impersonatorId,
    properties: event.properties ?? {},
    createdAt: ctx.clock.now(),
  }).returning();
  return row;
}
