import { and, eq } from 'drizzle-orm';
import { beginAttempt, type AttemptLimit } from '../attempts/limit.js';
import { inTransaction, type Context } from '../context.js';
import { queueMail } from '../mail/queue.js';
import { mailLocale, queueTemplatedMail } from '../email-templates/queue.js';
import { userVariables } from '../email-templates/templates.js';
import { recordEvent } from '../events/events.js';
import type { Locale } from '../i18n/locale.js';
import { claimLink, findLink, issueLink, type LinkLookup } from './links.js';
import { textsIn } from '../shared/html/messages.js';
import type { Realm } from './realms.js';
import { safeRedirect } from './redirects.js';
import { startRealmSession, type SessionOrigin, type StartedSession } from './sessions.js';
import { findByIdentifier } from './sign-in.js';
import { realmUsers } from '../tables/realms.js';
import { fieldsOf } from './custom-fields.js';
import { realmUserBody, realmUserEvent, userWithLock } from './users.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';

export const ACTIVATION_LINK_HOURS = 24;
const HOUR_MS = 60 * 60_000;
/**
 * Mails about an activation (the link at sign-up, each one sent again, the notice to an address that
 * already has an account) per email address; and requests to send the link again per client address.
 * Requests, not failures: they are never reset.
 */
export const ACTIVATION_MAILS_PER_EMAIL: AttemptLimit = { scope: 'activation_mail_email', max: 5, lockMs: HOUR_MS };
export const ACTIVATION_RESENDS_PER_ADDRESS: AttemptLimit = { scope: 'activation_resend_address', max: 20, lockMs: HOUR_MS };

const pageUrl = (ctx: Context, realm: Realm, page: string) => `${ctx.config.baseUrl}/realms/${encodeURIComponent(realm.uid)}/${page}`;

/**
 * What an address given to an `activation_email` sign-up (or to the page that sends the link again)
 * receives, decided apart from the answer so that the answer tells nothing of who has an account: a
 * user still waiting for confirmation gets a fresh link (older ones stop working); with
 * `noticeIfActive`, an active user gets a notice that the address already has an account; anyone
 * else nothing.
 */
async function mailActivation(ctx: Context, realm: Realm, email: string, redirectUri: string | null, noticeIfActive: boolean, locale: Locale): Promise<void> {
  // An email, never a username: the address typed is the one mailed.
  const user = email.includes('@') ? await findByIdentifier(ctx, realm, email) : undefined;
  if (!user) return;
  const pending = user.confirmationPending && !user.active;
  if (!pending && !(noticeIfActive && user.active)) return;
  const language = mailLocale(user, locale);
  const t = textsIn(language);
  if (!pending) {
    await queueMail(ctx, {
      to: user.email,
      subject: t.accountExistsMailSubject(realm.name),
      text: t.accountExistsMailText(realm.name, pageUrl(ctx, realm, 'login'), pageUrl(ctx, realm, 'password')),
    });
    return;
  }
  await inTransaction(ctx, async (tx) => {
    const { token } = await issueLink(tx, realm, {
      purpose: 'activation', userId: user.id, email: user.email, lifetimeMs: ACTIVATION_LINK_HOURS * HOUR_MS, redirectUri,
    });
    await queueTemplatedMail(tx, {
      to: user.email, kind: 'activation', realmId: realm.id, locale: language,
      variables: { realm: { uid: realm.uid, name: realm.name }, user: userVariables(user), url: pageUrl(ctx, realm, `activation/${token}`), valid_for: t.hours(ACTIVATION_LINK_HOURS) },
    });
  });
}

/**
 * Takes one of the address's ACTIVATION_MAILS_PER_EMAIL (counted for any address, known or not) and,
 * when allowed, mails in the background: the answer neither waits for the mail nor shows its failures.
 */
async function mailActivationLimited(ctx: Context, realm: Realm, email: string, redirectUri: string | null, noticeIfActive: boolean, locale: Locale): Promise<{ allowed: true } | { allowed: false; retryAt: Date }> {
  const attempt = await beginAttempt(ctx, ACTIVATION_MAILS_PER_EMAIL, `${realm.id}:${email.trim().toLowerCase()}`);
  if (!attempt.allowed) return { allowed: false, retryAt: attempt.lockedUntil ?? new Date(ctx.clock.now().getTime() + HOUR_MS) };
  mailActivation(ctx, realm, email, redirectUri, noticeIfActive, locale)
    .catch((err: Error) => ctx.log.error({ realm: realm.uid, reason: err.message }, 'could not send an activation mail'));
  return { allowed: true };
}

/**
 * After an `activation_email` sign-up, new address or taken: the pending user gets its link, an active
 * owner of the address a notice. Past the address's mail limit nothing is sent and the answer stays the same.
 */
export async function confirmSignUp(ctx: Context, realm: Realm, email: string, redirectUri: string | null, locale: Locale): Promise<void> {
  await mailActivationLimited(ctx, realm, email, redirectUri, true, locale);
}

export type ResendRequest = { accepted: true } | { accepted: false; retryAt: Date };

/** "Send the link again", asked from a client address; the answer is the same whoever the address is. */
export async function requestActivationLink(ctx: Context, realm: Realm, email: string, address: string, redirectUri: string | null, locale: Locale): Promise<ResendRequest> {
  const attempt = await beginAttempt(ctx, ACTIVATION_RESENDS_PER_ADDRESS, `${realm.id}:${address}`);
  if (!attempt.allowed) return { accepted: false, retryAt: attempt.lockedUntil ?? new Date(ctx.clock.now().getTime() + HOUR_MS) };
  const mailed = await mailActivationLimited(ctx, realm, email, redirectUri, false, locale);
  return mailed.allowed ? { accepted: true } : { accepted: false, retryAt: mailed.retryAt };
}

/** Whether an activation link would work now (the confirmation page), and the address it confirms. */
export async function findActivationLink(ctx: Context, realm: Realm, token: string): Promise<LinkLookup> {
  const found = await findLink(ctx, realm, 'activation', token);
  if (!found.ok || found.link.userId === null) return found.ok ? { ok: false, reason: 'gone' } : found;
  const [user] = await ctx.db.select({ pending: realmUsers.confirmationPending }).from(realmUsers)
    .where(and(eq(realmUsers.id, found.link.userId), eq(realmUsers.realmId, realm.id)));
  return user?.pending ? found : { ok: false, reason: 'gone' };
}

export type Activation =
  | { ok: true; userId: number; session: StartedSession; redirectUri: string | null }
  | { ok: false; reason: 'unknown' | 'gone' };

class LinkDead extends Error {
  constructor(readonly reason: 'unknown' | 'gone') {
    super(reason);
  }
}

/**
 * Uses an activation link up: the user becomes active (no longer pending) with its address proven, a fresh session starts
 * and `user_login_log` is recorded, all in one transaction: of simultaneous uses exactly one
 * activates, and a link whose user is no longer pending (an administrator decided meanwhile) writes
 * nothing. The redirect_uri the link carries is checked again now.
 */
export async function activateWithLink(ctx: Context, realm: Realm, token: string, origin: SessionOrigin = {}): Promise<Activation> {
  const fields = await fieldsOf(ctx, realm.id);
  try {
    const done = await inTransaction(ctx, async (tx) => {
      const claimed = await claimLink(tx, realm, 'activation', token);
      if (!claimed.ok) throw new LinkDead(claimed.reason);
      const { userId, redirectUri } = claimed.link;
      const now = ctx.clock.now();
      const [activated] = await tx.db.update(realmUsers).set({ active: true, confirmationPending: false, emailVerifiedAt: now, updatedAt: now })
        .where(and(eq(realmUsers.id, userId ?? 0), eq(realmUsers.realmId, realm.id), eq(realmUsers.confirmationPending, true)))
        .returning(userWithLock(now));
      if (!activated) throw new LinkDead('gone');
      const { lockedUntil, ...user } = activated;
      // A pending user is inactive: the link changes both.
      await emitWebhookEvent(ctx, tx.db, realmUserEvent('realm_user.updated', realm, realmUserBody(user, fields, lockedUntil), ['active', 'confirmation_pending']));
      const session = await startRealmSession(tx, realm, user.id, origin);
      await recordEvent(tx, { realmId: realm.id, userId: user.id, type: 'user_login_log', properties: { method: 'activation_link' } });
      return { userId: user.id, session, redirectUri };
    });
    ctx.caches.changed('customers', `user:${done.userId}`);
    return { ok: true, ...done, redirectUri: await safeRedirect(ctx, done.redirectUri) };
  } catch (err) {
    if (err instanceof LinkDead) return { ok: false, reason: err.reason };
    throw err;
  }
}
