import type { NavItem } from '../area';

export const identityNav: NavItem[] = [];
