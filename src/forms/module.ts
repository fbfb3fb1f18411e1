import type { AtriumModule } from '../shared/atrium-module.js';
import { hostedFormPages } from './pages/hosted.js';
import { formAdminRoutes } from './routes/admin.js';
import { customerFormRoutes, publicFormRoutes } from './routes/answering.js';

export const formsModule: AtriumModule = {
  name: 'forms',
  catalogs: (ctx) => ({
    admin: [formAdminRoutes(ctx)],
    content: [publicFormRoutes(ctx)],
    customers: [customerFormRoutes(ctx)],
  }),
  pages: (ctx) => [hostedFormPages(ctx)],
  webhookEvents: {
    'form.response.created': 'A form received a response (not spam), or an admin marked a caught one as not spam; data: form {uid, name}, response {id, submitted_at, email, user_id, status, answers by field name}',
  },
};
