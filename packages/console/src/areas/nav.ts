import type { MessageKey } from '../i18n/catalogue';
import type { NavItem } from './area';
import { identityNav } from './identity/nav';
import { realmsNav } from './realms/nav';
import { engagementNav } from './engagement/nav';
import { originationsNav } from './originations/nav';
import { contentNav } from './content/nav';
import { sitesNav } from './sites/nav';
import { formsNav } from './forms/nav';

/** The main navigation, one group per area. */
export const navGroups: { label: MessageKey; items: NavItem[] }[] = [
  { label: 'realms.area', items: realmsNav },
  { label: 'originations.area', items: originationsNav },
  { label: 'engagement.area', items: engagementNav },
  { label: 'content.area', items: contentNav },
  { label: 'sites.area', items: sitesNav },
  { label: 'forms.area', items: formsNav },
  { label: 'identity.area', items: identityNav },
];
