import type { AtriumModule } from '../shared/atrium-module.js';
import { messagingLinkRoutes } from './routes/links.js';
import { messagingRoutes } from './routes/campaigns.js';
import { campaignWorker } from './worker.js';

/** The wait of a campaign sender after an empty round while a delivery is sending. */
const SENDING_POLL_MS = 1_000;

export const messagingModule: AtriumModule = {
  name: 'messaging',
  catalogs: (ctx) => ({ admin: [messagingRoutes(ctx)] }),
  pages: (ctx) => [messagingLinkRoutes(ctx)],
  workers: (ctx) => [campaignWorker(ctx, SENDING_POLL_MS)],
  webhookEvents: {
    'delivery.completed': 'A campaign delivery completed; data: delivery uuid, campaign id and uuid, type, counts',
  },
};
