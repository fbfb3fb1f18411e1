import type { AtriumModule } from '../shared/atrium-module.js';
import { apiAccessRoutes } from './routes/api-access.js';
import { roleRoutes } from './routes/roles.js';
import { sessionRoutes } from './routes/session.js';
import { teamRoutes } from './routes/team.js';

export const adminAuthModule: AtriumModule = {
  name: 'admin-auth',
  catalogs: (ctx, modules) => ({
    admin: [
      sessionRoutes(ctx), teamRoutes(ctx, Object.assign({}, ...modules.map((m) => m.roleTargets))), roleRoutes(ctx), apiAccessRoutes(ctx),
    ],
  }),
};
