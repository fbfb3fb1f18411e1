import type { AtriumModule } from '../shared/atrium-module.js';
import { webhookRoutes } from './routes/webhooks.js';
import { webhookWorker } from './worker.js';

export const webhooksModule: AtriumModule = {
  name: 'webhooks',
  catalogs: (ctx, modules) => ({ admin: [webhookRoutes(ctx, Object.assign({}, ...modules.map((m) => m.webhookEvents)))] }),
  workers: (ctx) => (ctx.config.webhookSenders ? [webhookWorker(ctx, ctx.config.webhooksPollMs, ctx.config.webhookSenders)] : []),
};
