import { sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import type { Worker } from '../queue/loops.js';
import { WEBHOOK_QUEUE } from './outbox.js';
import { webhookRound } from './sender.js';
import { WebhookTransport } from './transport.js';

/** Runs rounds until one finds nothing due; what tests call (with their clock) instead of the loops. */
export async function drainWebhooks(ctx: Context): Promise<void> {
  const transport = new WebhookTransport(ctx.config.outboundAllowPrivate);
  try {
    while (await webhookRound(ctx, transport) > 0);
  } finally {
    transport.close();
  }
}

/**
 * The statement of `nextWebhookDue`: the first unheld row of each active endpoint (from that endpoint's part of the
 * index), and when the leases of held rows end. An endpoint failing for days keeps its backlog pending: none of it is
 * read but its first row.
 */
export const nextDueStatement = sql`select least(
    (select min(first.at) from webhook_endpoints e cross join lateral (
      select d.next_attempt_at as at from webhook_deliveries d
      where d.endpoint_id = e.id and d.status = 'pending' and d.lease_until is null
      order by d.next_attempt_at limit 1) first
    where e.active),
    (select min(greatest(d.next_attempt_at, d.lease_until)) from webhook_deliveries d
      join webhook_endpoints e on e.id = d.endpoint_id and e.active
      where d.status = 'pending' and d.lease_until is not null)) as next`;

/** When the next pending delivery of an active endpoint is due (or its lapsed lease is taken over); null with none. */
async function nextWebhookDue(ctx: Context): Promise<Date | null> {
  const [row] = rowsOf<{ next: string | Date | null }>(await ctx.db.execute(nextDueStatement));
  return row?.next ? new Date(row.next) : null;
}

/**
 * The webhook senders of a serving process: rounds back to back while deliveries are due, then asleep
 * until a delivery is written, or its retry falls due. `busyPollMs` (WEBHOOKS_POLL_MS) is the wait
 * after an empty round. `close` ends the transport once the loops have stopped.
 */
export function webhookWorker(ctx: Context, busyPollMs: number, loops: number): Worker & { close(): void } {
  const transport = new WebhookTransport(ctx.config.outboundAllowPrivate);
  return {
    queue: WEBHOOK_QUEUE,
    loops,
    round: () => webhookRound(ctx, transport),
    nextDue: () => nextWebhookDue(ctx),
    busyPollMs,
    failed: (err) => ctx.log.error({ err }, 'webhook sending round failed'),
    close: () => transport.close(),
  };
}
