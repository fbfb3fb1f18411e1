import { common } from './common';
import { home } from './home';
import { identity } from '../areas/identity/messages';
import { audit } from '../areas/identity/audit-messages';
import { realms } from '../areas/realms/messages';
import { engagement } from '../areas/engagement/messages';
import { originations } from '../areas/originations/messages';
import { content } from '../areas/content/messages';
import { sites } from '../areas/sites/messages';
import { forms } from '../areas/forms/messages';
import { templates } from '../areas/templates/messages';

/** Every area's messages, by namespace: a key is `namespace.key`, e.g. `common.save`. */
export const catalogue = { common, home, identity, audit, realms, originations, engagement, content, sites, forms, templates };

type Catalogue = typeof catalogue;
export type MessageKey = {
  [Namespace in keyof Catalogue]: `${Namespace & string}.${keyof Catalogue[Namespace]['en'] & string}`
}[keyof Catalogue];
