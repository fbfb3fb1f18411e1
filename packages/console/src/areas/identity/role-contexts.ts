import type { MessageKey } from '../../i18n/catalogue';
import type { Translate } from '../../i18n/i18n';

/** Where a role applies: the whole account, or one site, space or realm. */
export const ROLE_CONTEXTS = ['account', 'site', 'space', 'realm'] as const;

const WORDS: Record<string, MessageKey> = {
  account: 'identity.contextAccount', site: 'identity.contextSite', space: 'identity.contextSpace', realm: 'identity.contextRealm',
};

/** A role's context in words (one this console does not know, as the server says it). */
export const roleContextWord = (context: string, t: Translate) => (Object.hasOwn(WORDS, context) ? t(WORDS[context]!) : context);
