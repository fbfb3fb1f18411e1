import type { AtriumModule } from '../shared/atrium-module.js';
import { lockablesOf } from './lockables.js';
import { lockRoutes } from './routes/locks.js';

export const locksModule: AtriumModule = {
  name: 'locks',
  catalogs: (ctx, modules) => ({ admin: [lockRoutes(ctx, lockablesOf(modules))] }),
};
