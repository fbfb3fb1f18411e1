import type { AtriumPermission } from '@atrium/client';
import type { MessageKey } from '../i18n/catalogue';

/** An entry of the main navigation (and of the Ctrl/Cmd+K spotlight). `permission` hides it from members without it. */
export interface NavItem {
  to: string;
  label: MessageKey;
  permission?: AtriumPermission;
}
