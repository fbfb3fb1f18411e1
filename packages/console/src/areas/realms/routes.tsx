import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../app/routes-base';
import { validateListSearch } from '../../components/list-search';
import { validateUsersSearch } from './users-search';
import { validateEventsSearch } from './events-search';

export const realmsListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'realms',
  validateSearch: validateListSearch,
  // Every screen is its own chunk, loaded when its route is.
  component: lazyRouteComponent(() => import('./realms-page'), 'RealmsPage'),
});

/** The realm layout: its name, delete, and the tabs (links to the child routes below). */
export const realmRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'realms/$realmUid',
  component: lazyRouteComponent(() => import('./realm-layout'), 'RealmLayout'),
});

const child = <Path extends string>(path: Path) => ({ getParentRoute: () => realmRoute, path }) as const;

const realmTabs = [
  createRoute({ ...child('/'), component: lazyRouteComponent(() => import('./realm-page'), 'RealmPage') }),
  createRoute({ ...child('settings'), component: lazyRouteComponent(() => import('./settings-page'), 'SettingsPage') }),
  createRoute({ ...child('fields'), validateSearch: validateListSearch, component: lazyRouteComponent(() => import('./custom-fields-page'), 'CustomFieldsPage') }),
  createRoute({ ...child('identity-provider'), component: lazyRouteComponent(() => import('./identity-provider-page'), 'IdentityProviderPage') }),
  createRoute({ ...child('clients'), validateSearch: validateListSearch, component: lazyRouteComponent(() => import('./oauth-clients-page'), 'OAuthClientsPage') }),
  createRoute({ ...child('integrations'), component: lazyRouteComponent(() => import('./integrations-page'), 'IntegrationsPage') }),
  createRoute({ ...child('users'), validateSearch: validateUsersSearch, component: lazyRouteComponent(() => import('./users-page'), 'UsersPage') }),
  createRoute({ ...child('users/$userId'), component: lazyRouteComponent(() => import('./user-page'), 'UserPage') }),
  createRoute({ ...child('email-templates'), component: lazyRouteComponent(() => import('../templates/email-templates-page'), 'RealmEmailTemplatesPage') }),
  createRoute({ ...child('events'), validateSearch: validateEventsSearch, component: lazyRouteComponent(() => import('./events-page'), 'EventsPage') }),
] as const;

/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const realmsRoutes = [realmsListRoute, realmRoute.addChildren(realmTabs)] as const;
