import { describe, expect, it } from 'vitest';
import { AdminPrincipal, type Grant } from '../../src/admin-auth/principal.js';
import { assertMayActOn, assertMayDefineRole, assertMayGrant } from '../../src/admin-auth/privileges.js';

const grant = (key: string, context: string, target: string | null, permissions: string[]): Grant => ({ key, context, target, permissions });
const member = (...grants: Grant[]) => new AdminPrincipal(7, grants);

const owner = member(grant('account_owner', 'account', null, ['team.manage', 'roles.manage', 'realms.manage']));
const realmAdmin = member(grant('realm_admin', 'realm', 'banking', ['realms.manage', 'realm.users.write']));

describe('the privilege rules', () => {
  it('applies a realm role to its target only, and never beyond its context', () => {
    const stretched = member(grant('odd', 'realm', 'banking', ['realm.users.read', 'team.manage']));
    expect(stretched.holdsOn('realm.users.read', 'banking')).toBe(true);
    expect(stretched.holdsOn('realm.users.read', 'retail')).toBe(false);
    expect(stretched.holdsSomewhere('team.manage')).toBe(false);
    expect(stretched.holdsEverywhere('realm.users.read')).toBe(false);
    expect(stretched.holdsOn('realm.users.read', 'banking')).toBe(true);
  });

  it('grants only what the granter holds, where it holds it, and the owner role only by an owner', () => {
    expect(() => assertMayGrant(realmAdmin, [grant('realm_admin', 'realm', 'banking', ['realms.manage'])])).not.toThrow();
    expect(() => assertMayGrant(realmAdmin, [grant('realm_admin', 'realm', 'retail', ['realms.manage'])])).toThrow(/realms.manage/);
    expect(() => assertMayGrant(realmAdmin, [grant('account_user', 'account', null, ['realms.manage'])])).toThrow(/do not hold/);
    const admin = member(grant('account_admin', 'account', null, ['team.manage', 'realms.manage']));
    expect(() => assertMayGrant(admin, [grant('account_owner', 'account', null, [])])).toThrow('Only an owner can grant account_owner');
    expect(() => assertMayGrant(owner, [grant('account_owner', 'account', null, ['team.manage'])])).not.toThrow();
  });

  it('acts on a member only when holding everything it holds, and on an owner only as an owner', () => {
    const admin = member(grant('account_admin', 'account', null, ['team.manage', 'realms.manage', 'realm.users.write']));
    expect(() => assertMayActOn(admin, realmAdmin.grants)).not.toThrow();
    expect(() => assertMayActOn(realmAdmin, admin.grants)).toThrow(/team.manage/);
    expect(() => assertMayActOn(admin, owner.grants)).toThrow('Only an owner can act on an owner');
  });

  it('defines a role only with permissions held account-wide', () => {
    expect(() => assertMayDefineRole(owner, ['team.manage'])).not.toThrow();
    expect(() => assertMayDefineRole(realmAdmin, ['realms.manage'])).toThrow(/realms.manage/);
  });
});
