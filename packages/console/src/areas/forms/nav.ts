import type { NavItem } from '../area';

export const formsNav: NavItem[] = [
  { to: '/forms', label: 'forms.forms', permission: 'forms.read' },
];
