import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../app/routes-base';
import { validateRealmSearch, type RealmListSearch } from '../../components/list-search';

export interface SubmissionsSearch extends RealmListSearch { user?: number }
const validateSubmissionsSearch = (raw: Record<string, unknown>): SubmissionsSearch => {
  const user = Number(raw.user);
  return { ...validateRealmSearch(raw), user: Number.isSafeInteger(user) && user > 0 ? user : undefined };
};

export const originationsListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'originations',
  validateSearch: validateRealmSearch,
  component: lazyRouteComponent(() => import('./originations-page'), 'OriginationsPage'),
});

export const originationNewRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'originations/new',
  validateSearch: validateRealmSearch,
  component: lazyRouteComponent(() => import('./origination-new-page'), 'OriginationNewPage'),
});

export const originationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'originations/$realmUid/$originationId',
  component: lazyRouteComponent(() => import('./origination-page'), 'OriginationPage'),
});

export const groupsListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'reviewer-groups',
  validateSearch: validateRealmSearch,
  component: lazyRouteComponent(() => import('./groups-page'), 'GroupsPage'),
});

export const submissionsListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'submissions',
  validateSearch: validateSubmissionsSearch,
  component: lazyRouteComponent(() => import('./submissions-page'), 'SubmissionsPage'),
});

export const submissionRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'submissions/$realmUid/$submissionId',
  component: lazyRouteComponent(() => import('./submission-page'), 'SubmissionPage'),
});

/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const originationsRoutes = [
  originationsListRoute, originationNewRoute, originationRoute, groupsListRoute, submissionsListRoute, submissionRoute,
] as const;
