import type { AtriumModule } from '../shared/atrium-module.js';
import { userEventRoutes } from './event-routes.js';
import { meRoutes } from './routes.js';

export const customersModule: AtriumModule = {
  name: 'customers',
  catalogs: (ctx) => ({ customers: [meRoutes(ctx), userEventRoutes(ctx)] }),
};
