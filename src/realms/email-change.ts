import { and, eq, ne, sql } from 'drizzle-orm';
import { beginAttempt, type AttemptLimit } from '../attempts/limit.js';
import { inTransaction, type Context } from '../context.js';
import { mailLocale, queueTemplatedMail } from '../email-templates/queue.js';
import { userVariables } from '../email-templates/templates.js';
import { uniqueViolation } from '../db/unique.js';
import { recordEvent } from '../events/events.js';
import { tooManyAttempts } from '../errors/index.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';
import { fieldsOf } from './custom-fields.js';
import { claimLink, findLink, issueLink, type LinkLookup } from './links.js';
import { realmLanguage, textsIn } from '../shared/html/messages.js';
import type { Realm } from './realms.js';
import { realmUsers } from '../tables/realms.js';
import { changedAttributes, realmUserBody, realmUserEvent, userWithLock, type RealmUser } from './users.js';

/**
 * A user's change of their own email address (PUT /me) waits for proof: a one-time link mailed to the
 * new address (a realm user link of purpose `email_change`, holding the new address) sets it when
 * used, and the old address is told of the request. A newer request replaces the earlier link.
 */

export const EMAIL_CHANGE_LINK_HOURS = 24;

/** Each request mails an address the user typed: at most 5 an hour, so PUT /me cannot mail any address at will. */
const EMAIL_CHANGES_PER_USER: AttemptLimit = { scope: 'email_change_user', max: 5, windowMs: 60 * 60_000 };

/** Counts a request to change the user's address; 429 past the hour's limit, before anything is written. */
export async function allowEmailChange(ctx: Context, user: RealmUser): Promise<void> {
  const attempt = await beginAttempt(ctx, EMAIL_CHANGES_PER_USER, String(user.id));
  if (!attempt.allowed) throw tooManyAttempts(attempt.lockedUntil);
}

/** Queues the link to the new address and the notice to the old one, with the link (and the request's writes). */
export function requestEmailChange(ctx: Context, realm: Realm, user: RealmUser, email: string): Promise<void> {
  // In the user's language; no page asks for it, so the realm's default language otherwise.
  const locale = mailLocale(user, realmLanguage(realm));
  const variables = {
    realm: { uid: realm.uid, name: realm.name }, user: userVariables(user), new_email: email, valid_for: textsIn(locale).hours(EMAIL_CHANGE_LINK_HOURS),
  };
  return inTransaction(ctx, async (tx) => {
    const { token } = await issueLink(tx, realm, {
      purpose: 'email_change', userId: user.id, email, lifetimeMs: EMAIL_CHANGE_LINK_HOURS * 60 * 60_000,
    });
    const url = `${ctx.config.baseUrl}/realms/${encodeURIComponent(realm.uid)}/email_change/${token}`;
    await queueTemplatedMail(tx, { to: email, kind: 'email_change', realmId: realm.id, locale, variables: { ...variables, url } });
    await queueTemplatedMail(tx, { to: user.email, kind: 'email_change_notice', realmId: realm.id, locale, variables });
  });
}

/** Whether an email change link would work now (the confirmation page), and the address it sets. */
export const findEmailChangeLink = (ctx: Context, realm: Realm, token: string): Promise<LinkLookup> => findLink(ctx, realm, 'email_change', token);

export type EmailChange =
  | { ok: true; email: string }
  /** `taken`: another user of the realm has the address now; nothing was changed and the link still works. */
  | { ok: false; reason: 'unknown' | 'gone' | 'taken' };

class Refused extends Error {
  constructor(readonly reason: 'unknown' | 'gone' | 'taken') {
    super(reason);
  }
}

/**
 * Uses an email change link up: the user's address becomes the link's, proven now, with
 * `user_updated_log` and `realm_user.updated`, all in one transaction; an address taken meanwhile
 * (unique per realm regardless of case) changes nothing.
 */
export async function confirmEmailChange(ctx: Context, realm: Realm, token: string): Promise<EmailChange> {
  const fields = await fieldsOf(ctx, realm.id);
  try {
    const done = await inTransaction(ctx, async (tx) => {
      const claimed = await claimLink(tx, realm, 'email_change', token);
      if (!claimed.ok) throw new Refused(claimed.reason);
      const { userId, email } = claimed.link;
      const mine = and(eq(realmUsers.id, userId ?? 0), eq(realmUsers.realmId, realm.id));
      const [before] = await tx.db.select().from(realmUsers).where(mine).for('update');
      if (!before) throw new Refused('gone');
      const [other] = await tx.db.select({ id: realmUsers.id }).from(realmUsers)
        .where(and(eq(realmUsers.realmId, realm.id), sql`lower(${realmUsers.email}) = ${email.toLowerCase()}`, ne(realmUsers.id, before.id)));
      if (other) throw new Refused('taken');
      const now = ctx.clock.now();
      const [{ lockedUntil, ...user }] = await tx.db.update(realmUsers).set({ email, emailVerifiedAt: now, updatedAt: now })
        .where(mine).returning(userWithLock(now));
      await emitWebhookEvent(ctx, tx.db, realmUserEvent('realm_user.updated', realm, realmUserBody(user, fields, lockedUntil), changedAttributes(before, user)));
      await recordEvent(tx, { realmId: realm.id, userId: user.id, type: 'user_updated_log' });
      return user;
    });
    ctx.caches.changed('customers', `user:${done.id}`);
    return { ok: true, email: done.email };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.reason };
    if (uniqueViolation(err) === 'realm_users_email_key') return { ok: false, reason: 'taken' };
    throw err;
  }
}
