import { Counter } from 'prom-client';

/**
 * The counters features add to as things happen; the `/metrics` route (and its gauges read at
 * scrape time) live beside them. One set per process, in prom-client's default registry.
 */
export const counters = {
  webhookAttempts: new Counter({
    name: 'atrium_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (succeeded, failed, timeout, refused, error).',
    labelNames: ['outcome'] as const,
  }),
  campaignMessages: new Counter({
    name: 'atrium_campaign_messages_total',
    help: 'Campaign messages finished, by result (sent, failed, in_doubt).',
    labelNames: ['result'] as const,
  }),
  lockouts: new Counter({
    name: 'atrium_lockouts_total',
    help: 'Sign-in lockouts reached, by who was signing in (admin, realm_user).',
    labelNames: ['who'] as const,
  }),
};
