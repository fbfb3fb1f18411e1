import type { NavItem } from '../area';

export const originationsNav: NavItem[] = [];
