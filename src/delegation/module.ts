import type { AtriumModule } from '../shared/atrium-module.js';
import { delegatedLoginPages, delegationButton } from './pages.js';
import { identityProviderRoutes } from './routes/identity-providers.js';

export const delegationModule: AtriumModule = {
  name: 'delegation',
  catalogs: (ctx) => ({ admin: [identityProviderRoutes(ctx)] }),
  pages: (ctx) => [delegatedLoginPages(ctx)],
  realmPages: { signInOptions: delegationButton },
};
