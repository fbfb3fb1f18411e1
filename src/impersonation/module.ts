import type { AtriumModule } from '../shared/atrium-module.js';
import { impersonationBanner, sessionAccessPage } from './pages.js';
import { impersonationRoutes } from './routes/impersonation.js';

export const impersonationModule: AtriumModule = {
  name: 'impersonation',
  catalogs: (ctx) => ({ admin: [impersonationRoutes(ctx)] }),
  pages: (ctx) => [sessionAccessPage(ctx)],
  realmPages: { sessionNotice: impersonationBanner },
};
