import type { Context } from '../context.js';
import { startLoops } from '../jobs/loops.js';
import type { JobTimer } from '../jobs/runner.js';
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
 * The webhook senders of a serving process: each loop runs rounds back to back while deliveries are
 * due and looks again every `pollMs` (WEBHOOKS_POLL_MS) when none is. A stop waits for the rounds under way.
 */
export function startWebhookSenders(ctx: Context, pollMs: number, loops = 2): JobTimer {
  const transport = new WebhookTransport(ctx.config.outboundAllowPrivate);
  const running = startLoops(loops, pollMs, () => webhookRound(ctx, transport), (err) => ctx.log.error({ err }, 'webhook sending round failed'));
  return {
    stop: async () => {
      await running.stop();
      transport.close();
    },
  };
}
