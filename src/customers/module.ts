import type { AtriumModule } from '../shared/atrium-module.js';
import { userEventRoutes } from './routes/events.js';
import { meRoutes } from './routes/me.js';

export const customersModule: AtriumModule = {
  name: 'customers',
  catalogs: (ctx) => ({ customers: [meRoutes(ctx), userEventRoutes(ctx)] }),
};
