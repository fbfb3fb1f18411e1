import { createRouter } from '@tanstack/react-router';
import { contentRoutes } from '../areas/content/routes';
import { engagementRoutes } from '../areas/engagement/routes';
import { identityRoutes, invitationRoute } from '../areas/identity/routes';
import { originationsRoutes } from '../areas/originations/routes';
import { realmsRoutes } from '../areas/realms/routes';
import { sitesRoutes } from '../areas/sites/routes';
import { formsRoutes } from '../areas/forms/routes';
import { templatesRoutes } from '../areas/templates/routes';
import { appRoute, homeRoute, rootRoute, signInRoute } from './routes-base';

const routeTree = rootRoute.addChildren([
  signInRoute,
  invitationRoute,
  appRoute.addChildren([homeRoute, ...realmsRoutes, ...originationsRoutes, ...engagementRoutes, ...contentRoutes, ...sitesRoutes, ...formsRoutes, ...templatesRoutes, ...identityRoutes]),
]);

export const router = createRouter({ routeTree, basepath: '/admin', defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
