import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute } from '../../app/routes-base';
import { validateListSearch } from '../../components/list-search';

export const formsListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'forms',
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./forms-page'), 'FormsPage'),
});

/** The builder: `formUid` is `new` for a new form. */
export const formRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'forms/$formUid',
  component: lazyRouteComponent(() => import('./form-builder-page'), 'FormBuilderPage'),
});

/** A form's responses; `status` (received or spam), `from` and `to` (dates) filter them. */
export interface ResponsesSearch { page?: number; status?: 'received' | 'spam'; from?: string; to?: string }
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const responsesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'forms/$formUid/responses',
  validateSearch: (raw: Record<string, unknown>): ResponsesSearch => ({
    page: validateListSearch(raw).page,
    status: raw.status === 'received' || raw.status === 'spam' ? raw.status : undefined,
    from: typeof raw.from === 'string' && DATE.test(raw.from) ? raw.from : undefined,
    to: typeof raw.to === 'string' && DATE.test(raw.to) ? raw.to : undefined,
  }),
  component: lazyRouteComponent(() => import('./responses-page'), 'ResponsesPage'),
});

/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const formsRoutes = [formsListRoute, formRoute, responsesRoute] as const;
