import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../app/routes-base';
import { validateListSearch, validateRealmSearch } from '../../components/list-search';

export const segmentsListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'segments',
  validateSearch: validateRealmSearch,
  component: lazyRouteComponent(() => import('./segments-page'), 'SegmentsPage'),
});

export const segmentNewRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'segments/new',
  validateSearch: validateRealmSearch,
  component: lazyRouteComponent(() => import('./segment-new-page'), 'SegmentNewPage'),
});

export const segmentRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'segments/$segmentId',
  component: lazyRouteComponent(() => import('./segment-page'), 'SegmentPage'),
});

export const campaignsListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'campaigns',
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./campaigns-page'), 'CampaignsPage'),
});

export const campaignRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'campaigns/$campaignId',
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./campaign-page'), 'CampaignPage'),
});

/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const engagementRoutes = [segmentsListRoute, segmentNewRoute, segmentRoute, campaignsListRoute, campaignRoute] as const;
