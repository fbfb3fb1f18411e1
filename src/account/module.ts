import type { AtriumModule } from '../shared/atrium-module.js';
import { accountRoutes } from './routes/account.js';

export const accountModule: AtriumModule = {
  name: 'account',
  catalogs: (ctx) => ({ admin: [accountRoutes(ctx)] }),
};
