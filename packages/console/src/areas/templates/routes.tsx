import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../app/routes-base';

/** The account's default email templates; a realm's overrides are a tab of the realm (realms/routes.tsx). */
export const emailTemplatesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'email-templates',
  component: lazyRouteComponent(() => import('./email-templates-page'), 'EmailTemplatesPage'),
});

export const templatesRoutes = [emailTemplatesRoute] as const;
