import type { AtriumModule } from '../../shared/atrium-module.js';
import { zendeskAdminRoutes, zendeskCustomerRoutes } from './routes.js';

export const zendeskModule: AtriumModule = {
  name: 'zendesk',
  catalogs: (ctx) => ({ admin: [zendeskAdminRoutes(ctx)], customers: [zendeskCustomerRoutes(ctx)] }),
};
