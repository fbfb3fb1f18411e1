import type { AtriumModule } from '../shared/atrium-module.js';
import { backchannelLogoutQueue } from './backchannel-logout.js';
import { oauthClientRoutes } from './routes/clients.js';
import { oauthServerRoutes } from './routes/endpoints.js';

export const oauthModule: AtriumModule = {
  name: 'oauth',
  catalogs: (ctx) => ({ admin: [oauthClientRoutes(ctx)] }),
  pages: (ctx) => [oauthServerRoutes(ctx)],
  taskQueues: [backchannelLogoutQueue],
};
