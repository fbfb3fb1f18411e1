import { ALL_PERMISSIONS, type Permission, type RoleContext } from './permissions.js';

export interface BuiltInRole {
  key: string;
  name: string;
  context: RoleContext;
  permissions: Permission[];
}

const except = (...left: Permission[]) => ALL_PERMISSIONS.filter((p) => !left.includes(p));

const SITE_VIEW: Permission[] = ['site.read', 'content.read'];
const SITE_DEVELOP: Permission[] = [...SITE_VIEW, 'site.write', 'content.write'];
const REALM_VIEW: Permission[] = ['realms.read', 'realm.users.read', 'realm.activity.read', 'realm.originations.read', 'segments.read', 'messaging.read', 'forms.read'];
const REALM_USE: Permission[] = [...REALM_VIEW, 'realm.users.write', 'realm.activity.write', 'realm.originations.review', 'realm.originations.manage'];

/** The fifteen roles every account starts with (facts page, "Roles"). */
export const BUILT_IN_ROLES: BuiltInRole[] = [
  { key: 'account_user', name: 'Default user', context: 'account', permissions: ['account.read', 'team.read', 'roles.read', 'realms.read', 'realm.originations.read', 'content.read', 'segments.read', 'messaging.read', 'site.read', 'forms.read', 'templates.read'] },
  { key: 'account_admin', name: 'Default admin', context: 'account', permissions: except('roles.manage') },
  { key: 'account_owner', name: 'Full admin', context: 'account', permissions: [...ALL_PERMISSIONS] },
  { key: 'site_viewer', name: 'Viewer', context: 'site', permissions: SITE_VIEW },
  // A site developer changes a site but cannot publish it (spec 5.1).
  { key: 'site_developer', name: 'Developer', context: 'site', permissions: SITE_DEVELOP },
  { key: 'site_developer_cli', name: 'Developer CLI', context: 'site', permissions: SITE_DEVELOP },
  { key: 'site_reviewer', name: 'Reviewer', context: 'site', permissions: [...SITE_VIEW, 'site.publish', 'content.publish'] },
  { key: 'site_admin', name: 'Admin', context: 'site', permissions: [...SITE_DEVELOP, 'site.publish', 'content.publish'] },
  { key: 'space_viewer', name: 'Viewer', context: 'space', permissions: ['content.read'] },
  // A space writer writes drafts but cannot publish.
  { key: 'space_writer', name: 'Writer', context: 'space', permissions: ['content.read', 'content.write'] },
  { key: 'space_editor', name: 'Editor', context: 'space', permissions: ['content.read', 'content.write', 'content.publish'] },
  { key: 'space_admin', name: 'Admin', context: 'space', permissions: ['content.read', 'content.write', 'content.publish', 'content.manage'] },
  { key: 'realm_user', name: 'User', context: 'realm', permissions: REALM_USE },
  // A realm viewer reads users but cannot change them.
  { key: 'realm_viewer', name: 'Viewer', context: 'realm', permissions: REALM_VIEW },
  { key: 'realm_admin', name: 'Admin', context: 'realm', permissions: [...REALM_USE, 'realms.manage', 'realm.users.impersonate', 'segments.manage', 'messaging.send', 'forms.manage', 'templates.read', 'templates.manage'] },
];

export const OWNER_ROLE = 'account_owner';

export function builtInRole(key: string): BuiltInRole | undefined {
  return BUILT_IN_ROLES.find((r) => r.key === key);
}
