import { Badge } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { ACTIVE_GREEN } from '../../app/theme';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import type { UserStatus } from './users-search';

type RealmUser = Pick<AdminComponents['schemas']['RealmUser'], 'active' | 'moderation_pending' | 'confirmation_pending'>;

export const USER_STATUS_WORDS: Record<UserStatus, MessageKey> = {
  active: 'realms.statusActive',
  inactive: 'realms.statusInactive',
  awaiting_moderation: 'realms.statusAwaitingModeration',
  awaiting_confirmation: 'realms.statusAwaitingConfirmation',
};

/** Where a user stands: active, awaiting an administrator's approval, awaiting the activation link, or inactive. */
export const userStatusOf = (user: RealmUser): UserStatus => (user.active ? 'active'
  : user.moderation_pending ? 'awaiting_moderation' : user.confirmation_pending ? 'awaiting_confirmation' : 'inactive');

export function UserStatusBadge({ user }: { user: RealmUser }) {
  const { t } = useI18n();
  const status = userStatusOf(user);
  return <Badge color={status === 'active' ? ACTIVE_GREEN : status === 'inactive' ? 'gray.7' : 'grape.9'}>{t(USER_STATUS_WORDS[status])}</Badge>;
}
