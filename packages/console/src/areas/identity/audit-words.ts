import type { AdminComponents } from '@atrium/client';
import type { MessageKey } from '../../i18n/catalogue';
import type { Translate } from '../../i18n/i18n';

type Entry = Pick<AdminComponents['schemas']['AuditLogEntry'], 'operation' | 'resource_type' | 'resource_id' | 'resource_label' | 'realm' | 'status_code'>;

/** The operations that say more than "Created", "Changed" or "Deleted": the route (as the log records it) → its sentence. */
const SENTENCES: Record<string, MessageKey> = {
  'sign_in': 'audit.sign_in',
  'sign_in_failed': 'audit.sign_in_failed',
  'locked_out': 'audit.locked_out',
  'sign_out': 'audit.sign_out',
  'invitation_accepted': 'audit.invitation_accepted',
  'identity_provider_issuer_changed': 'audit.identity_provider_issuer_changed',
  'POST /api/admin/sites/{site_uid}/publish (scheduled)': 'audit.scheduledPublish',
  'PUT /account': 'audit.accountChanged',
  'POST /customers/{realm_uid}/users/{id}/activate': 'audit.userActivated',
  'DELETE /customers/{realm_uid}/users/{id}/sessions': 'audit.userSignedOut',
  'DELETE /customers/{realm_uid}/users/{id}/sessions/{session_id}': 'audit.userSessionEnded',
  'POST /customers/{realm_uid}/users/{id}/impersonate': 'audit.userImpersonated',
  'POST /customers/{realm_uid}/users/invitations': 'audit.userInvited',
  'PUT /customers/{realm_uid}/users/{id}/avatar': 'audit.userAvatarChanged',
  'DELETE /customers/{realm_uid}/users/{id}/avatar': 'audit.userAvatarRemoved',
  'POST /customers/{realm_uid}/users/{id}/notifications': 'audit.userNotified',
  'POST /customers/{realm_uid}/users/{id}/events': 'audit.userEventRecorded',
  'POST /customers/{realm_uid}/oauth_clients/{id}/regenerate_secret': 'audit.clientSecretRegenerated',
  'POST /team_members/invitations': 'audit.memberInvited',
  'POST /webhooks/{id}/rotate_secret': 'audit.webhookSecretRotated',
  'POST /webhooks/{id}/test': 'audit.webhookTested',
  'POST /messaging/campaigns/{id}/deliveries': 'audit.campaignSent',
  'POST /sites/{site_uid}/publish': 'audit.sitePublished',
  'POST /roles/{id}/restore': 'audit.roleRestored',
  'POST /webhooks/deliveries/{id}/retry': 'audit.deliveryRetried',
};

/** The kinds of resource the log names in words: `resource_type` → its noun in a sentence, and its name as a filter. */
const RESOURCE_NOUNS: Record<string, MessageKey> = {
  realms: 'audit.noun_realms', users: 'audit.noun_users', custom_fields: 'audit.noun_custom_fields', groups: 'audit.noun_groups',
  oauth_clients: 'audit.noun_oauth_clients', originations: 'audit.noun_originations', submissions: 'audit.noun_submissions',
  team_members: 'audit.noun_team_members', access_tokens: 'audit.noun_access_tokens', roles: 'audit.noun_roles',
  applications: 'audit.noun_applications', webhooks: 'audit.noun_webhooks', segments: 'audit.noun_segments', campaigns: 'audit.noun_campaigns',
  spaces: 'audit.noun_spaces', types: 'audit.noun_types', entries: 'audit.noun_entries', forms: 'audit.noun_forms',
  responses: 'audit.noun_responses', sites: 'audit.noun_sites', files: 'audit.noun_files', layout_pages: 'audit.noun_layout_pages',
  menus: 'audit.noun_menus', locks: 'audit.noun_locks', sessions: 'audit.noun_sessions',
  identity_provider: 'audit.noun_identity_provider', account: 'audit.noun_account', deliveries: 'audit.noun_deliveries',
};

/** The kinds of resource to filter by, in words, in alphabetical order of the language. */
export const resourceKinds = (t: Translate) => Object.keys(RESOURCE_NOUNS)
  .map((type) => ({ value: type, label: t(`audit.kind_${type}` as MessageKey) }))
  .sort((a, b) => a.label.localeCompare(b.label));

const own = (map: Record<string, MessageKey>, key: string | null): MessageKey | undefined =>
  (key !== null && Object.hasOwn(map, key) ? map[key] : undefined);

/** A kind of resource in words; one the console does not know, by its own name ("scheduled_publishes" → "scheduled publishes"). */
const nounOf = (type: string, t: Translate) => {
  const noun = own(RESOURCE_NOUNS, type);
  return noun ? t(noun) : type.replaceAll('_', ' ');
};

/** Created, Changed or Deleted: a POST to the collection that the resource is of creates it; any other POST changes it. */
function genericVerb(entry: Entry): MessageKey {
  const [method, path = ''] = entry.operation.split(' ');
  if (method === 'DELETE') return 'audit.deleted';
  const last = path.split('/').at(-1);
  return method === 'POST' && last === entry.resource_type ? 'audit.created' : 'audit.changed';
}

/**
 * One audit entry as a sentence: "Changed user Ana Pérez in realm Acme". The resource is named by
 * the label the server recorded (else its id), the realm by its name (else its uid).
 */
export function describeAuditEntry(entry: Entry, t: Translate): string {
  const name = entry.resource_label ?? entry.resource_id ?? '';
  const sentence = own(SENTENCES, entry.operation);
  const said = sentence
    ? t(sentence, { name })
    : entry.resource_type
      ? t(genericVerb(entry), { thing: t('audit.thing', { noun: nounOf(entry.resource_type, t), name }).trim() })
      : entry.operation;
  const realm = entry.realm && entry.resource_type !== 'realms' ? entry.realm.name ?? entry.realm.uid : null;
  return realm ? t('audit.inRealm', { sentence: said, realm }) : said;
}

/** The answer's status in words: done, refused (401, 403), too many attempts (429) or failed. */
export function auditOutcome(status: number | null, t: Translate): string {
  if (status === null) return '—';
  if (status < 400) return t('audit.succeeded');
  if (status === 401 || status === 403) return t('audit.refused');
  return status === 429 ? t('audit.tooMany') : t('audit.failed');
}
