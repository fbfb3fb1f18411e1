import type { AtriumModule } from '../shared/atrium-module.js';
import { profileRoutes } from './routes/profile.js';

export const profileModule: AtriumModule = {
  name: 'profile',
  catalogs: (ctx) => ({ profile: [profileRoutes(ctx)] }),
};
