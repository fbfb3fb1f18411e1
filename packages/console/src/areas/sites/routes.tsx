import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../app/routes-base';
import { validateListSearch } from '../../components/list-search';

export const sitesListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'sites',
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./sites-page'), 'SitesPage'),
});

/** The site layout: its name and the tabs (design, pages, menus, publishing), links to the child routes below. */
export const siteRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'sites/$siteUid',
  component: lazyRouteComponent(() => import('./site-layout'), 'SiteLayout'),
});

const child = <Path extends string>(path: Path) => ({ getParentRoute: () => siteRoute, path }) as const;

const siteTabs = [
  createRoute({ ...child('/'), component: lazyRouteComponent(() => import('./design-page'), 'DesignPage') }),
  // `kind` is layouts, snippets or files; `itemId` is `new` for a new one. CodeMirror is only in this chunk.
  createRoute({ ...child('design/$kind/$itemId'), component: lazyRouteComponent(() => import('./template-page'), 'TemplatePage') }),
  createRoute({ ...child('pages'), component: lazyRouteComponent(() => import('./pages-page'), 'PagesPage') }),
  createRoute({ ...child('pages/$pageId'), component: lazyRouteComponent(() => import('./page-editor-page'), 'PageEditorPage') }),
  createRoute({ ...child('menus'), component: lazyRouteComponent(() => import('./menus-page'), 'MenusPage') }),
  createRoute({ ...child('menus/$menuUid'), component: lazyRouteComponent(() => import('./menu-page'), 'MenuPage') }),
  createRoute({ ...child('publishing'), component: lazyRouteComponent(() => import('./publishing-page'), 'PublishingPage') }),
] as const;

/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const sitesRoutes = [sitesListRoute, siteRoute.addChildren(siteTabs)] as const;
