import type { AtriumModule } from './shared/atrium-module.js';
import { mailModule } from './mail/module.js';
import { emailTemplatesModule } from './email-templates/module.js';
import { maintenanceModule } from './maintenance/module.js';
import { adminAuthModule } from './admin-auth/module.js';
import { accountModule } from './account/module.js';
import { realmsModule } from './realms/module.js';
import { oauthModule } from './oauth/module.js';
import { customersModule } from './customers/module.js';
import { otpModule } from './otp/module.js';
import { notificationsModule } from './notifications/module.js';
import { zendeskModule } from './integrations/zendesk/module.js';
import { impersonationModule } from './impersonation/module.js';
import { delegationModule } from './delegation/module.js';
import { originationsModule } from './originations/module.js';
import { uploadsModule } from './uploads/module.js';
import { segmentsModule } from './segments/module.js';
import { messagingModule } from './messaging/module.js';
import { contentModule } from './content/module.js';
import { sitesModule } from './sites/module.js';
import { formsModule } from './forms/module.js';
import { locksModule } from './locks/module.js';
import { auditModule } from './audit/module.js';
import { webhooksModule } from './webhooks/module.js';
import { profileModule } from './profile/module.js';
import { consoleModule } from './console/module.js';

/**
 * The features the application is made of. The order is the order of each catalog's routes (and so of its
 * OpenAPI document), of the jobs and of the webhook event types list.
 */
export const DEFAULT_MODULES: readonly AtriumModule[] = [
  mailModule, maintenanceModule, adminAuthModule, accountModule, emailTemplatesModule, realmsModule, oauthModule, customersModule, otpModule,
  notificationsModule, zendeskModule, impersonationModule, delegationModule, originationsModule, uploadsModule, segmentsModule,
  messagingModule, contentModule, sitesModule, formsModule, locksModule, auditModule, webhooksModule, profileModule, consoleModule,
];
