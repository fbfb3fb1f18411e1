import type { AtriumModule } from '../shared/atrium-module.js';
import { auditLogRoutes } from './routes.js';

export const auditModule: AtriumModule = {
  name: 'audit',
  catalogs: (ctx) => ({ admin: [auditLogRoutes(ctx)] }),
};
