import type { NavItem } from '../area';

export const contentNav: NavItem[] = [
  { to: '/content', label: 'content.spaces', permission: 'content.read' },
];
