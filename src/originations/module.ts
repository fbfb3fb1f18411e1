import type { AtriumModule } from '../shared/atrium-module.js';
import { submissionCustomerRoutes } from './routes/customers.js';
import { originationRoutes } from './routes/originations.js';
import { submissionAdminRoutes } from './routes/submissions.js';

export const originationsModule: AtriumModule = {
  name: 'originations',
  catalogs: (ctx) => ({ admin: [originationRoutes(ctx), submissionAdminRoutes(ctx)], customers: [submissionCustomerRoutes(ctx)] }),
  webhookEvents: {
    'submission.status_changed': 'An origination submission changed status; data: submission and origination uuids, user id, status, previous_status',
  },
};
