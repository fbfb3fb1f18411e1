import type { AtriumModule } from '../shared/atrium-module.js';
import { apiAccessRoutes } from './routes/api-access.js';
import { invitationRoutes } from './routes/invitations.js';
import { roleRoutes } from './routes/roles.js';
import { sessionRoutes } from './routes/session.js';
import { teamRoutes } from './routes/team.js';
import { twoFactorRoutes } from './routes/two-factor.js';

export const adminAuthModule: AtriumModule = {
  name: 'admin-auth',
  catalogs: (ctx, modules) => {
    const targets = Object.assign({}, ...modules.map((m) => m.roleTargets));
    return { admin: [sessionRoutes(ctx), twoFactorRoutes(ctx), teamRoutes(ctx, targets), invitationRoutes(ctx, targets), roleRoutes(ctx), apiAccessRoutes(ctx)] };
  },
};
