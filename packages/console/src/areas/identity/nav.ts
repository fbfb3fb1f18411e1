import type { NavItem } from '../area';

export const identityNav: NavItem[] = [
  { to: '/account', label: 'identity.account', permission: 'account.read' },
  { to: '/members', label: 'identity.members', permission: 'team.read' },
  { to: '/roles', label: 'identity.roles', permission: 'roles.read' },
  { to: '/applications', label: 'identity.applications', permission: 'api_access.manage' },
  { to: '/email-templates', label: 'templates.emailTemplates', permission: 'templates.read' },
  { to: '/webhooks', label: 'identity.webhooks', permission: 'webhooks.read' },
  { to: '/audit', label: 'identity.auditLog', permission: 'audit.read' },
];
