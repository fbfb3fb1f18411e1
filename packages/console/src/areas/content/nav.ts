import type { NavItem } from '../area';

export const contentNav: NavItem[] = [];
