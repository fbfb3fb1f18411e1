/**
 * What an admin operation may need. Every admin route names exactly one of these; a role is a set of them.
 */
export const PERMISSIONS = {
  'account.read': 'Read the account settings',
  'account.manage': 'Change the account settings',
  'team.read': 'List team members',
  'team.manage': 'Create, change and remove team members and their tokens',
  'roles.read': 'List roles',
  'roles.manage': 'Create, change, delete and restore roles',
  'api_access.manage': 'Manage API access applications',
  'realms.read': 'List realms and read their settings',
  'realms.manage': 'Create, change and delete realms and their settings',
  'realm.users.read': 'Read the users of a realm',
  'realm.users.write': 'Create, change and remove users of a realm, end their sessions',
  'realm.users.impersonate': 'Open a session as a user of a realm (impersonation)',
  'realm.activity.read': 'Read the business events of a realm',
  'realm.activity.write': 'Record business events and send notifications to users of a realm',
  'realm.originations.read': 'Read the originations, reviewer groups and submissions of a realm',
  'realm.originations.manage': 'Create, change and delete the originations and reviewer groups of a realm',
  'realm.originations.review': 'Start, assign, review, extend and cancel submissions of a realm',
  'segments.read': 'List segments',
  'segments.manage': 'Create, change and delete segments',
  'messaging.read': 'List campaigns and deliveries',
  'messaging.send': 'Create campaigns and send them',
  'content.read': 'Read content spaces, types and entries',
  'content.write': 'Write draft content',
  'content.publish': 'Publish and unpublish content',
  'content.manage': 'Create and change content spaces and types',
  'site.read': 'Read sites',
  'site.write': 'Change sites',
  'site.publish': 'Publish sites',
  'webhooks.read': 'List webhook endpoints and their deliveries',
  'webhooks.manage': 'Create, change and delete webhook endpoints, rotate their secrets, resend deliveries',
  'audit.read': 'Read the audit log of admin actions',
  'forms.read': 'Read forms and (with realm.users.read for a realm\'s forms) their responses',
  'forms.manage': 'Create, change and delete forms; mark, delete and erase responses',
  'templates.read': 'Read and preview the email templates (the account\'s, or a realm\'s overrides)',
  'templates.manage': 'Change, reset and test-send the email templates (the account\'s, or a realm\'s overrides)',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(value: string): value is Permission {
  return Object.hasOwn(PERMISSIONS, value);
}

export type RoleContext = 'account' | 'site' | 'space' | 'realm';

export const ROLE_CONTEXTS: RoleContext[] = ['account', 'site', 'space', 'realm'];

const REALM_PERMISSIONS: Permission[] = [
  'realms.read', 'realms.manage', 'realm.users.read', 'realm.users.write', 'realm.users.impersonate', 'realm.activity.read', 'realm.activity.write',
  'realm.originations.read', 'realm.originations.manage', 'realm.originations.review', 'segments.read', 'segments.manage', 'messaging.read', 'messaging.send', 'forms.read', 'forms.manage',
  'templates.read', 'templates.manage',
];
const SPACE_PERMISSIONS: Permission[] = ['content.read', 'content.write', 'content.publish', 'content.manage'];
const SITE_PERMISSIONS: Permission[] = ['site.read', 'site.write', 'site.publish', 'content.read', 'content.write', 'content.publish'];

/**
 * What a role of each context may carry. A realm, space or site role reaches one target, so it can
 * never carry what only makes sense account-wide (the team, roles, API access, account settings).
 */
export const CONTEXT_PERMISSIONS: Record<RoleContext, readonly Permission[]> = {
  account: ALL_PERMISSIONS,
  realm: REALM_PERMISSIONS,
  space: SPACE_PERMISSIONS,
  site: SITE_PERMISSIONS,
};

export function permittedIn(context: string, permission: string): permission is Permission {
  return Object.hasOwn(CONTEXT_PERMISSIONS, context) && CONTEXT_PERMISSIONS[context as RoleContext].includes(permission as Permission);
}
