import type { NavItem } from '../area';

export const engagementNav: NavItem[] = [
  { to: '/segments', label: 'engagement.segments', permission: 'segments.read' },
  { to: '/campaigns', label: 'engagement.campaigns', permission: 'messaging.read' },
];
