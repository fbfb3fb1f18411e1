import type { AtriumModule } from '../../shared/atrium-module.js';
import { zendeskAdminRoutes, zendeskCustomerRoutes } from './routes/zendesk.js';

export const zendeskModule: AtriumModule = {
  name: 'zendesk',
  catalogs: (ctx) => ({ admin: [zendeskAdminRoutes(ctx)], customers: [zendeskCustomerRoutes(ctx)] }),
};
