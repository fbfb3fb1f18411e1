import { sql } from 'drizzle-orm';
import type { Caches } from '../caches.js';
import type { Clock } from '../clock.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { rowsOf } from '../db/rows.js';

const KEY = 'subscribed';

/**
 * The event types some active endpoint subscribes to, kept in the `webhooks` cache: a change whose
 * type nobody receives (every change, on a server without webhooks) writes no outbox row and costs
 * no query. Any change of an endpoint empties the cache here and in every other process.
 */
export async function subscribedTypes(db: Db, clock: Clock, caches: Caches): Promise<Set<string>> {
  const cache = caches.of<Set<string>>('webhooks');
  const now = clock.now();
  const cached = cache.get(KEY, now);
  if (cached) return cached;
  const rows = rowsOf<{ type: string }>(await db.execute(sql`select distinct unnest(event_types) as type from webhook_endpoints where active`));
  const types = new Set(rows.map((r) => r.type));
  cache.set(KEY, types, now);
  return types;
}

/** Called after any change of an endpoint: what it subscribes to, or whether it is active. */
export const endpointsChanged = (ctx: Pick<Context, 'caches'>) => ctx.caches.changed('webhooks');
