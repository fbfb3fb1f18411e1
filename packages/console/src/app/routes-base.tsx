import { createRootRoute, createRoute, Outlet } from '@tanstack/react-router';
import { NotFound } from '../components/error-view';
import { SignInPage } from '../session/sign-in-page';
import { Home } from './home';
import { Shell } from './shell';

export const rootRoute = createRootRoute({ component: Outlet, notFoundComponent: NotFound });

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: (raw: Record<string, unknown>): { redirect?: string; expired?: boolean } => ({
    redirect: typeof raw.redirect === 'string' ? raw.redirect : undefined,
    expired: raw.expired === true || raw.expired === 'true' ? true : undefined,
  }),
  component: SignInPage,
});

/** Every signed-in screen is a child of this route: area routes take `getParentRoute: () => appRoute`. */
export const appRoute = createRoute({ getParentRoute: () => rootRoute, id: 'app', component: Shell });

export const homeRoute = createRoute({ getParentRoute: () => appRoute, path: '/', component: Home });
