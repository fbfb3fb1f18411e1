import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../app/routes-base';
import { validateListSearch } from '../../components/list-search';

export const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account',
  component: lazyRouteComponent(() => import('./account-page'), 'AccountPage'),
});

export const membersListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'members',
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./members-page'), 'MembersPage'),
});

export const memberRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'members/$memberId',
  component: lazyRouteComponent(() => import('./member-page'), 'MemberPage'),
});

/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const identityRoutes = [accountRoute, membersListRoute, memberRoute] as const;
