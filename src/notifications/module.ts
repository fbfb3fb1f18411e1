import type { AtriumModule } from '../shared/atrium-module.js';
import { notificationAdminRoutes, notificationCustomerRoutes } from './routes/notifications.js';

export const notificationsModule: AtriumModule = {
  name: 'notifications',
  catalogs: (ctx) => ({ admin: [notificationAdminRoutes(ctx)], customers: [notificationCustomerRoutes(ctx)] }),
};
