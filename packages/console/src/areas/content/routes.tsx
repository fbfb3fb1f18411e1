import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../app/routes-base';
import { validateListSearch } from '../../components/list-search';
import { validateEntriesSearch, validateEntrySearch } from './entries-search';

export const spacesListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'content',
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./spaces-page'), 'SpacesPage'),
});

/** The space layout: its name and the tabs (types, assets), links to the child routes below. */
export const spaceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'content/$spaceUid',
  component: lazyRouteComponent(() => import('./space-layout'), 'SpaceLayout'),
});

const child = <Path extends string>(path: Path) => ({ getParentRoute: () => spaceRoute, path }) as const;

const spaceTabs = [
  createRoute({ ...child('/'), validateSearch: validateListSearch, component: lazyRouteComponent(() => import('./types-page'), 'TypesPage') }),
  createRoute({ ...child('assets'), validateSearch: validateListSearch, component: lazyRouteComponent(() => import('./assets-page'), 'AssetsPage') }),
  createRoute({ ...child('types/$typeUid'), component: lazyRouteComponent(() => import('./type-page'), 'TypePage') }),
  createRoute({ ...child('types/$typeUid/entries'), validateSearch: validateEntriesSearch, component: lazyRouteComponent(() => import('./entries-page'), 'EntriesPage') }),
  // `new` for a new entry; the editor (and Tiptap with it) is its own chunk.
  createRoute({ ...child('types/$typeUid/entries/$entryUuid'), validateSearch: validateEntrySearch, component: lazyRouteComponent(() => import('./entry-page'), 'EntryPage') }),
] as const;

/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const contentRoutes = [spacesListRoute, spaceRoute.addChildren(spaceTabs)] as const;
