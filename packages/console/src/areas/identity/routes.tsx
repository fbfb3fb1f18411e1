import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { appRoute, rootRoute } from '../../app/routes-base';
import { validateListSearch, type ListSearch } from '../../components/list-search';
import { validateAuditSearch } from './audit-search';

export const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'account',
  component: lazyRouteComponent(() => import('./account-page'), 'AccountPage'),
});

/** The page a team invitation's link opens, outside the signed-in screens. */
export const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'invitation/$token',
  component: lazyRouteComponent(() => import('./invitation-page'), 'InvitationPage'),
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

export const rolesListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'roles',
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./roles-page'), 'RolesPage'),
});

export const roleRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'roles/$roleId',
  component: lazyRouteComponent(() => import('./role-page'), 'RolePage'),
});

export const auditLogRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'audit',
  validateSearch: validateAuditSearch,
  component: lazyRouteComponent(() => import('./audit-log-page'), 'AuditLogPage'),
});

export const applicationsListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'applications',
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./applications-page'), 'ApplicationsPage'),
});

export const applicationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'applications/$applicationId',
  component: lazyRouteComponent(() => import('./application-page'), 'ApplicationPage'),
});

export const webhooksListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'webhooks',
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./webhooks-page'), 'WebhooksPage'),
});

export const webhookRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'webhooks/$webhookId',
  validateSearch: (raw: Record<string, unknown>): ListSearch & { status?: string } => ({
    ...validateListSearch(raw),
    status: typeof raw.status === 'string' && /^[a-z_]{1,20}$/.test(raw.status) ? raw.status : undefined,
  }),
  component: lazyRouteComponent(() => import('./webhook-page'), 'WebhookPage'),
});

/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const identityRoutes = [accountRoute, membersListRoute, memberRoute, rolesListRoute, roleRoute, auditLogRoute, applicationsListRoute, applicationRoute, webhooksListRoute, webhookRoute] as const;
