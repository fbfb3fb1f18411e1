import type { NavItem } from '../area';

export const realmsNav: NavItem[] = [
  { to: '/realms', label: 'realms.title', permission: 'realms.read' },
];
