import type { AtriumModule } from '../shared/atrium-module.js';
import { assetFileRoutes, assetRoutes } from './routes/assets.js';
import { deliveryRoutes, deliveryTokenRoutes } from './routes/delivery.js';
import { ENTRY_LOCKABLES } from './entries/lock.js';
import { entryRoutes } from './routes/entries.js';
import { contentScheduleJob } from './entries/publishing.js';
import { fieldIndexQueue } from './types/field-indexes.js';
import { spaceRoutes } from './routes/spaces.js';
import { typeSchemaRoutes } from './routes/type-schema.js';
import { typeRoutes } from './routes/types.js';
import { resolvePathSpace } from './path-space.js';
import { spaceExists } from './spaces.js';

export const contentModule: AtriumModule = {
  name: 'content',
  catalogs: (ctx) => ({
    admin: [spaceRoutes(ctx), typeRoutes(ctx), entryRoutes(ctx), assetRoutes(ctx)],
    content: [deliveryRoutes(ctx), typeSchemaRoutes(ctx), assetFileRoutes(ctx)],
    customers: [deliveryTokenRoutes(ctx)],
  }),
  adminPreHandlers: (ctx) => [resolvePathSpace(ctx)],
  jobs: [contentScheduleJob],
  taskQueues: [fieldIndexQueue],
  roleTargets: { space: spaceExists },
  lockables: ENTRY_LOCKABLES,
  webhookEvents: {
    'entry.published': 'A content entry was published (also by its schedule); data: space uid, type uid, entry id, locales',
    'entry.unpublished': 'A content entry was unpublished (also by its schedule); data: space uid, type uid, entry id, locales',
  },
};
