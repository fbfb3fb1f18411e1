import type { NavItem } from '../area';

export const originationsNav: NavItem[] = [
  { to: '/originations', label: 'originations.originations', permission: 'realm.originations.read' },
  { to: '/submissions', label: 'originations.submissions', permission: 'realm.originations.read' },
  { to: '/reviewer-groups', label: 'originations.groups', permission: 'realm.originations.read' },
];
