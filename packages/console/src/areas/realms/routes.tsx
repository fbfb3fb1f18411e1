import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../app/routes-base';
import { validateListSearch } from '../../components/list-search';

export const realmsListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'realms',
  validateSearch: validateListSearch,
  // Every screen is its own chunk, loaded when its route is.
  component: lazyRouteComponent(() => import('./realms-page'), 'RealmsPage'),
});

export const realmRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'realms/$realmUid',
  component: lazyRouteComponent(() => import('./realm-page'), 'RealmPage'),
});

/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const realmsRoutes = [realmsListRoute, realmRoute] as const;
