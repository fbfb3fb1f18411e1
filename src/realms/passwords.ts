import { and, eq, type SQL } from 'drizzle-orm';
import { attemptFailed, attemptSucceeded, beginAttempt, resetAttempts, type AttemptLimit } from '../attempts/limit.js';
import { inTransaction, type Context } from '../context.js';
import { mailLocale, queueTemplatedMail } from '../email-templates/queue.js';
import { userVariables } from '../email-templates/templates.js';
import { recordEvent } from '../events/events.js';
import { hashPassword, UNKNOWN_ACCOUNT_HASH, verifyPassword } from '../security/passwords.js';
import type { Customer } from './credential.js';
import type { Locale } from '../i18n/locale.js';
import { claimLink, expireLinks, issueLink } from './links.js';
import { realmLanguage, textsIn } from '../shared/html/messages.js';
import type { Realm } from './realms.js';
import { revokeUserSessions } from './sessions.js';
import { findByIdentifier } from './sign-in.js';
import { CODE_FAILURES_PER_DAY, SIGN_IN_LIMIT, signInSubject } from './sign-in-limit.js';
import { realmUsers } from '../tables/realms.js';
import { proveAddress, realmUserBody, realmUserEvent, userWithLock, type RealmUser } from './users.js';
import { fieldsOf } from './custom-fields.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';

export const RESET_LINK_MINUTES = 30;
const RESET_LOCK_MS = 15 * 60_000;
/** Reset requests, not failures: a request that sends a link counts like any other (the counters are never reset). */
export const RESET_PER_IDENTIFIER: AttemptLimit = { scope: 'password_reset_identifier', max: 5, lockMs: RESET_LOCK_MS };
export const RESET_PER_ADDRESS: AttemptLimit = { scope: 'password_reset_address', max: 20, lockMs: RESET_LOCK_MS };

export type ResetRequest = { accepted: true } | { accepted: false; retryAt: Date };

/**
 * A password reset asked for an identifier (email or username) from a client address. The answer is the
 * same whether anybody has the identifier or not; the link is made and mailed after the answer, so the
 * answer's time tells nothing either. The mail is written in `locale`: the page's language.
 */
export async function requestPasswordReset(
  ctx: Context, realm: Realm, identifier: string, address: string, locale: Locale = realmLanguage(realm),
): Promise<ResetRequest> {
  for (const [limit, subject] of [[RESET_PER_ADDRESS, `${realm.id}:${address}`], [RESET_PER_IDENTIFIER, `${realm.id}:${identifier.trim().toLowerCase()}`]] as const) {
    const attempt = await beginAttempt(ctx, limit, subject);
    if (!attempt.allowed) return { accepted: false, retryAt: attempt.lockedUntil ?? new Date(ctx.clock.now().getTime() + RESET_LOCK_MS) };
  }
  const user = await findByIdentifier(ctx, realm, identifier);
  if (user?.active) {
    sendResetLink(ctx, realm, user, mailLocale(user, locale)).catch((err: Error) => ctx.log.error({ realm: realm.uid, reason: err.message }, 'could not send a password reset link'));
  }
  return { accepted: true };
}

/** Makes the link and queues its mail in one transaction: both or neither. */
function sendResetLink(ctx: Context, realm: Realm, user: RealmUser, locale: Locale): Promise<void> {
  return inTransaction(ctx, async (tx) => {
    const { token } = await issueLink(tx, realm, { purpose: 'password_reset', userId: user.id, email: user.email, lifetimeMs: RESET_LINK_MINUTES * 60_000 });
    const url = `${ctx.config.baseUrl}/realms/${encodeURIComponent(realm.uid)}/password/reset/${token}`;
    await queueTemplatedMail(tx, {
      to: user.email, kind: 'password_reset', realmId: realm.id, locale,
      variables: { realm: { uid: realm.uid, name: realm.name }, user: userVariables(user), url, valid_for: textsIn(locale).minutes(RESET_LINK_MINUTES) },
    });
  });
}

export type ResetOutcome = { ok: true } | { ok: false; reason: 'unknown' | 'gone' };

/**
 * Uses a reset link up and sets the user's new password (already checked for strength). Every session
 * of the user ends, its address is proven, and its sign-in lock and its day's count of wrong one-time codes
 * are lifted: whoever reset the password may sign in.
 */
export async function resetPassword(ctx: Context, realm: Realm, token: string, password: string): Promise<ResetOutcome> {
  const claimed = await claimLink(ctx, realm, 'password_reset', token);
  if (!claimed.ok) return claimed;
  const userId = claimed.link.userId;
  if (userId === null) return { ok: false, reason: 'gone' };
  const user = await storePassword(ctx, realm, and(eq(realmUsers.id, userId), eq(realmUsers.realmId, realm.id), eq(realmUsers.active, true))!,
    await hashPassword(password));
  if (!user) return { ok: false, reason: 'gone' };
  // The link was read at the address. proveAddress also drops cached credentials, which must not keep the old password's hash.
  await proveAddress(ctx, userId);
  await revokeUserSessions(ctx, userId);
  // Whoever asked for a change of the address with the old password loses it with the password.
  await expireLinks(ctx, realm, { purpose: 'email_change', userId, email: user.email });
  for (const limit of [SIGN_IN_LIMIT, CODE_FAILURES_PER_DAY]) await resetAttempts(ctx, limit, signInSubject(realm.id, user, ''));
  await recordEvent(ctx, { realmId: realm.id, userId, type: 'user_password_reset_log' });
  return { ok: true };
}

/** Sets the password of the user `where` names, with `realm_user.updated` in the outbox; the user, or undefined when none matched. */
async function storePassword(ctx: Context, realm: Realm, where: SQL, passwordHash: string): Promise<RealmUser | undefined> {
  const fields = await fieldsOf(ctx, realm.id);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx.update(realmUsers).set({ passwordHash }).where(where).returning(userWithLock(now));
    if (!updated) return undefined;
    const { lockedUntil, ...user } = updated;
    await emitWebhookEvent(ctx, tx, realmUserEvent('realm_user.updated', realm, realmUserBody(user, fields, lockedUntil), ['password']));
    return user;
  });
}

export type ChangeOutcome = { ok: true } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'locked'; lockedUntil: Date | null };

/**
 * A signed-in user's new password (already checked for strength), given the current one. A wrong
 * current password is a failed sign-in (SIGN_IN_LIMIT), so this form cannot be used to guess it. The
 * user's other sessions end; this one stays.
 */
export async function changePassword(ctx: Context, customer: Customer, current: string, password: string): Promise<ChangeOutcome> {
  const { realm, user, session } = customer;
  const subject = signInSubject(realm.id, user, '');
  const attempt = await beginAttempt(ctx, SIGN_IN_LIMIT, subject);
  if (!attempt.allowed) return { ok: false, reason: 'locked', lockedUntil: attempt.lockedUntil };
  if (!await verifyPassword(current, user.passwordHash ?? UNKNOWN_ACCOUNT_HASH) || !user.passwordHash) {
    attemptFailed(SIGN_IN_LIMIT, attempt);
    await recordEvent(ctx, { realmId: realm.id, userId: user.id, type: 'user_login_attempt_failed_log', impersonatorId: session.impersonatorId });
    return { ok: false, reason: 'invalid' };
  }
  await attemptSucceeded(ctx, SIGN_IN_LIMIT, subject);
  await storePassword(ctx, realm, eq(realmUsers.id, user.id), await hashPassword(password));
  ctx.caches.changed('customers', `user:${user.id}`);
  await revokeUserSessions(ctx, user.id, session.id);
  await recordEvent(ctx, { realmId: realm.id, userId: user.id, type: 'user_password_changed_log', impersonatorId: session.impersonatorId });
  return { ok: true };
}
