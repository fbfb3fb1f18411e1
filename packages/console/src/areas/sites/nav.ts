import type { NavItem } from '../area';

export const sitesNav: NavItem[] = [
  { to: '/sites', label: 'sites.sites', permission: 'site.read' },
];
