import { validateListSearch, type ListSearch } from '../../components/list-search';

export const USER_STATUSES = ['active', 'inactive', 'awaiting_moderation', 'awaiting_confirmation'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** The realm's users list in its URL: page, search, sort and the status filter (`awaiting_moderation`: the sign-ups to decide on). */
export interface UsersSearch extends ListSearch { status?: UserStatus }

export const validateUsersSearch = (raw: Record<string, unknown>): UsersSearch => ({
  ...validateListSearch(raw),
  status: USER_STATUSES.find((status) => status === raw.status),
});
