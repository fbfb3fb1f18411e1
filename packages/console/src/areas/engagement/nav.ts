import type { NavItem } from '../area';

export const engagementNav: NavItem[] = [];
