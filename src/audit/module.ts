import type { AtriumModule } from '../shared/atrium-module.js';
import { auditLogRoutes } from './routes/logs.js';

export const auditModule: AtriumModule = {
  name: 'audit',
  catalogs: (ctx) => ({ admin: [auditLogRoutes(ctx)] }),
};
