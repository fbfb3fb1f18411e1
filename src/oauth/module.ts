import type { AtriumModule } from '../shared/atrium-module.js';
import { backchannelLogoutQueue } from './backchannel-logout.js';
import { oauthClientRoutes } from './routes/clients.js';
import { oauthServerRoutes } from './routes/endpoints.js';
import { signingKeyRotationJob } from './signing-keys.js';

export const oauthModule: AtriumModule = {
  name: 'oauth',
  catalogs: (ctx) => ({ admin: [oauthClientRoutes(ctx)] }),
  pages: (ctx) => [oauthServerRoutes(ctx)],
  taskQueues: [backchannelLogoutQueue],
  jobs: [signingKeyRotationJob],
};
