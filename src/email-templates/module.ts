import type { AtriumModule } from '../shared/atrium-module.js';
import { renderQueuedMail } from './queue.js';
import { templateRoutes } from './routes/templates.js';

/** Mail templates: the account's defaults and realms' overrides of every mail Atrium writes, rendered when the mail queue sends them. */
export const emailTemplatesModule: AtriumModule = {
  name: 'email-templates',
  catalogs: (ctx) => ({ admin: [templateRoutes(ctx)] }),
  mailRenderer: renderQueuedMail,
};
