import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { InvitationAcceptInput, MemberInvitationInput, MemberInvitationModel } from './schema.js';
import { attemptFailed, attemptSucceeded, beginAttempt, type AttemptLimit } from '../attempts/limit.js';
import { recordAudit } from '../audit/log.js';
import { inTransaction, type Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { FieldErrors, invitationGone, invitationNotFound } from '../errors/index.js';
import type { Locale } from '../i18n/locale.js';
import { queueTemplatedMail } from '../mail/queue.js';
import { hashPassword, UNKNOWN_ACCOUNT_HASH } from '../security/passwords.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { textsIn } from '../shared/html/messages.js';
import type { ActingContext } from './principal.js';
import { assertMayGrant } from './privileges.js';
import type { RoleTargets } from './role-targets.js';
import { lockedOut } from './sessions.js';
import {
  checkPassword, emailTaken, isEmail, lockMemberToActOn, normalizeEmail, resolveRoles, teamMemberById, type ResolvedRole,
} from './team.js';
import { accounts } from '../tables/account.js';
import { admins, memberInvitations, roleAssignments } from '../tables/admin-auth.js';

export const MEMBER_INVITATION_DAYS = 7;
/** Wrong or spent tokens from one client address; a right one takes only itself back. */
export const ACCEPT_LIMIT: AttemptLimit = { scope: 'member_invitation_address', max: 20, windowMs: 60 * 60_000 };

export type InvitationBody = Static<typeof MemberInvitationModel>;

/**
 * Invites a team member by email: the member is created inactive, with no password anything matches and
 * the roles given (checked and granted as `POST /team_members` does), and a one-time link to choose a
 * password is mailed through the mail queue in the same transaction. Inviting a pending member again
 * (inactive, never chose a password) sets their name and roles anew and replaces the link: the earlier
 * one stops working. Any other member's address is taken (422).
 */
export async function inviteMember(ctx: ActingContext, input: Static<typeof MemberInvitationInput>, targets: RoleTargets): Promise<InvitationBody> {
  ctx.actor.assertHolds('team.manage');
  const errors = new FieldErrors();
  const email = normalizeEmail(input.email);
  if (!email) errors.add('email', "can't be blank");
  else if (!isEmail(email) || email.length > 255) errors.add('email', 'is invalid');
  const assignments = await resolveRoles(ctx, targets, input.roles, errors);
  errors.throwIfAny();
  assertMayGrant(ctx.actor, assignments.map((a) => a.grant));
  const token = randomSecret();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + MEMBER_INVITATION_DAYS * 24 * 60 * 60_000);
  const locale: Locale = input.locale ?? 'en';
  const names = { firstName: input.first_name?.trim(), lastName: input.last_name?.trim() };
  const { invitationId, memberId } = await inTransaction(ctx, async (tx) => {
    // A concurrent invitation of the same new address waits here for the first to commit, then re-issues it.
    const [created] = await tx.db.insert(admins).values({
      email, firstName: names.firstName ?? '', lastName: names.lastName ?? '', passwordHash: UNKNOWN_ACCOUNT_HASH, active: false, createdAt: now, updatedAt: now,
    }).onConflictDoNothing({ target: admins.email }).returning({ id: admins.id });
    const id = created?.id ?? await reinvite(ctx, tx.db, email, names, now);
    await tx.db.delete(roleAssignments).where(eq(roleAssignments.adminId, id));
    await assign(tx.db, id, assignments, now);
    const [invitation] = await tx.db.insert(memberInvitations).values({ adminId: id, tokenHash: hashSecret(token), expiresAt, createdAt: now })
      .returning({ id: memberInvitations.id });
    const [account] = await tx.db.select({ name: accounts.name }).from(accounts).orderBy(asc(accounts.id)).limit(1);
    const [member] = await tx.db.select({ first: admins.firstName, last: admins.lastName }).from(admins).where(eq(admins.id, id));
    const name = [member.first, member.last].filter(Boolean).join(' ');
    await queueTemplatedMail(tx, {
      to: email, kind: 'member_invitation', realmId: null, locale,
      variables: {
        account: { name: account?.name ?? 'Atrium' }, member: { email, name }, url: `${ctx.config.baseUrl}/admin/invitation/${token}`,
        valid_for: textsIn(locale).days(MEMBER_INVITATION_DAYS),
      },
    });
    return { invitationId: invitation.id, memberId: id };
  });
  ctx.caches.changed('access', `admin:${memberId}`, 'roles');
  return { id: invitationId, email, expires_at: expiresAt.toISOString(), member: await teamMemberById(ctx, memberId) };
}

/**
 * The member who already has the address, locked, provided it is still pending (inactive and has never
 * chosen a password: that holds after the job removing old links, which links alone would not) and the
 * actor may act on it: its names are set when given, and its live links are marked expired.
 */
async function reinvite(ctx: ActingContext, tx: Db, email: string, names: { firstName?: string; lastName?: string }, now: Date): Promise<number> {
  const [existing] = await tx.select({ id: admins.id }).from(admins).where(eq(admins.email, email));
  if (!existing) throw emailTaken();
  const member = await lockMemberToActOn(ctx, tx, existing.id);
  if (member.active || member.passwordHash !== UNKNOWN_ACCOUNT_HASH) throw emailTaken();
  await tx.update(admins).set({ ...names, updatedAt: now }).where(eq(admins.id, member.id));
  await tx.update(memberInvitations).set({ expiresAt: now })
    .where(and(eq(memberInvitations.adminId, member.id), isNull(memberInvitations.usedAt), gt(memberInvitations.expiresAt, now)));
  return member.id;
}

async function assign(tx: Db, adminId: number, assignments: ResolvedRole[], now: Date): Promise<void> {
  if (!assignments.length) return;
  await tx.insert(roleAssignments).values(assignments.map((a) => ({ roleId: a.roleId, target: a.target, adminId, createdAt: now })));
}

/**
 * Uses an invitation link up: the member gets the password chosen and becomes active. One conditional
 * UPDATE claims the link, so of any number of simultaneous uses exactly one succeeds. Unknown (404) and
 * spent (410) tokens count against the client's address (ACCEPT_LIMIT); a locked address's token is
 * not looked at (429). The acceptance is in the audit log as `invitation_accepted` by the member.
 */
export async function acceptInvitation(ctx: Context, input: Static<typeof InvitationAcceptInput>, address: string): Promise<{ email: string }> {
  const errors = new FieldErrors();
  checkPassword(input.password, errors, true);
  errors.throwIfAny();
  const now = ctx.clock.now();
  const attempt = await beginAttempt(ctx, ACCEPT_LIMIT, address);
  if (!attempt.allowed) throw lockedOut(now, attempt.lockedUntil);
  const passwordHash = await hashPassword(input.password);
  const tokenHash = hashSecret(input.token);
  const accepted = await ctx.db.transaction(async (tx) => {
    const [claimed] = await tx.update(memberInvitations).set({ usedAt: now })
      .where(and(eq(memberInvitations.tokenHash, tokenHash), isNull(memberInvitations.usedAt), gt(memberInvitations.expiresAt, now)))
      .returning({ adminId: memberInvitations.adminId });
    if (!claimed) return null;
    const [member] = await tx.update(admins).set({ passwordHash, active: true, updatedAt: now })
      .where(eq(admins.id, claimed.adminId)).returning({ id: admins.id, email: admins.email });
    await recordAudit(tx, now, {
      actor: { adminId: member.id, credentialKind: null, applicationId: null }, operation: 'invitation_accepted',
      resourceType: 'team_members', resourceId: String(member.id), address, statusCode: 200,
    });
    return member;
  });
  if (!accepted) {
    const [known] = await ctx.db.select({ id: memberInvitations.id }).from(memberInvitations).where(eq(memberInvitations.tokenHash, tokenHash));
    attemptFailed(ACCEPT_LIMIT, attempt);
    throw known ? invitationGone() : invitationNotFound();
  }
  await attemptSucceeded(ctx, ACCEPT_LIMIT, address);
  ctx.caches.changed('access', `admin:${accepted.id}`);
  return { email: accepted.email };
}
