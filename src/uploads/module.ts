import type { AtriumModule } from '../shared/atrium-module.js';
import { dropAttachments } from './attachments.js';
import { attachmentAdminRoutes, attachmentCustomerRoutes } from './routes/attachments.js';

export const uploadsModule: AtriumModule = {
  name: 'uploads',
  catalogs: (ctx) => ({ admin: [attachmentAdminRoutes(ctx)], customers: [attachmentCustomerRoutes(ctx)] }),
  // An answer's files go with the user who uploaded them.
  onUsersDeleted: dropAttachments,
};
