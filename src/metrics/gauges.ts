import { sql, type SQL } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';

/**
 * Queue depths read when scraped, each by a count over a partial index on its waiting rows
 * (webhook_deliveries_endpoint_due_idx, message_deliveries_pending_idx), so the cost follows the backlog,
 * not the table.
 */
const DEPTHS: { name: string; help: string; count: SQL }[] = [
  {
    name: 'atrium_webhook_outbox_depth',
    help: 'Webhook deliveries waiting to be sent or retried (the outbox).',
    count: sql`select count(*)::int as n from webhook_deliveries where status = 'pending'`,
  },
  {
    name: 'atrium_sending_queue_depth',
    help: 'Campaign messages waiting to be sent.',
    count: sql`select count(*)::int as n from message_deliveries where status = 'pending'`,
  },
];

/** Gauges of the database read at scrape time: the connection pool and the queue depths. */
export function databaseGauges(registry: Registry, ctx: Context): void {
  new Gauge({
    name: 'atrium_db_pool_connections',
    help: 'Database connections by state: total open, idle, and max (the pool size); the embedded database is one connection.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = ctx.database.pool();
      this.set({ state: 'max' }, pool.max);
      this.set({ state: 'total' }, pool.total);
      if (pool.idle !== null) this.set({ state: 'idle' }, pool.idle);
    },
  });
  // The embedded database queues its queries out of sight: no figure rather than a made-up 0.
  if (ctx.config.databaseUrl) {
    new Gauge({
      name: 'atrium_db_pool_waiting_queries',
      help: 'Queries waiting for a free database connection.',
      registers: [registry],
      collect() {
        this.set(ctx.database.pool().waiting ?? 0);
      },
    });
  }
  for (const depth of DEPTHS) {
    new Gauge({
      name: depth.name,
      help: depth.help,
      registers: [registry],
      async collect() {
        try {
          const [row] = rowsOf<{ n: number }>(await ctx.db.execute(depth.count));
          this.set(row.n);
        } catch (err) {
          // The rest of the scrape still answers; NaN says this one could not be read.
          ctx.log.warn({ err, metric: depth.name }, 'metrics: cannot read a queue depth');
          this.set(Number.NaN);
        }
      },
    });
  }
}
