import type { AtriumModule } from '../shared/atrium-module.js';
import { servedSitePages, siteDomainHook } from './pages/served.js';
import { designRoutes } from './routes/design.js';
import { headlessMenuRoutes } from './routes/headless.js';
import { layoutPageRoutes } from './routes/pages.js';
import { publishingRoutes } from './routes/publishing.js';
import { siteRoutes } from './routes/sites.js';
import { sitePublishQueue } from './schedule.js';
import { SITE_LOCKABLES } from './site-locks.js';
import { siteExists } from './sites.js';

export const sitesModule: AtriumModule = {
  name: 'sites',
  catalogs: (ctx) => ({
    admin: [siteRoutes(ctx), designRoutes(ctx), layoutPageRoutes(ctx), publishingRoutes(ctx)],
    content: [headlessMenuRoutes(ctx)],
  }),
  pages: (ctx) => [servedSitePages(ctx)],
  requestHooks: (ctx) => [siteDomainHook(ctx)],
  taskQueues: [sitePublishQueue],
  roleTargets: { site: siteExists },
  lockables: SITE_LOCKABLES,
  webhookEvents: {
    'site.published': 'A site was published (also by a schedule or a rollback); data: site uid, version number, what changed, who published',
  },
};
