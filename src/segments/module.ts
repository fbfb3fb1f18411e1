import type { AtriumModule } from '../shared/atrium-module.js';
import { segmentCountsJob } from './refresh.js';
import { segmentRoutes } from './routes/segments.js';

export const segmentsModule: AtriumModule = {
  name: 'segments',
  catalogs: (ctx) => ({ admin: [segmentRoutes(ctx)] }),
  jobs: [segmentCountsJob],
};
