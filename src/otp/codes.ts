import { randomInt } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { attemptFailed, attemptNotCounted, attemptSucceeded, beginAttempt, resetAttempts, type AttemptLimit } from '../attempts/limit.js';
import { inTransaction, type Context } from '../context.js';
import { mailLocale, queueTemplatedMail } from '../email-templates/queue.js';
import { userVariables } from '../email-templates/templates.js';
import type { Locale } from '../i18n/locale.js';
import { realmLanguage, textsIn } from '../shared/html/messages.js';
import type { Realm } from '../realms/realms.js';
import { findByIdentifier } from '../realms/sign-in.js';
import { CODE_FAILURES_PER_DAY, signInSubject } from '../realms/sign-in-limit.js';
import { proveAddress, type RealmUser } from '../realms/users.js';
import { hashSecret } from '../security/secrets.js';
import { otpCodes } from '../tables/otp.js';

/**
 * Spec 3 and 8: five wrong codes lock the subject until a new code is requested. Counted apart from
 * password failures, and one counter per user whichever way the code is checked (the customers API's
 * verify_otp_code or the otp_code page): both guess at the same secret.
 */
export const OTP_LIMIT: AttemptLimit = { scope: 'otp_code', max: 5, lockMs: null, lockout: 'realm_user' };

const HOUR_MS = 60 * 60_000;
/**
 * Codes sent per user (or name nobody has) and requests per client address, in a window of an hour
 * from the first: with the realm's resend wait at 0, they are what bounds the mails a user receives
 * (and, with CODE_FAILURES_PER_DAY, the guesses). A request refused for another reason is not counted.
 */
export const CODES_PER_USER: AttemptLimit = { scope: 'otp_send_user', max: 5, windowMs: HOUR_MS };
export const CODES_PER_ADDRESS: AttemptLimit = { scope: 'otp_send_address', max: 20, windowMs: HOUR_MS };

export const CODE_FORMAT = /^\d{6}$/;

/**
 * SHA-256 rather than a slow hash: there are only a million codes, so a slow hash would not keep a
 * stolen table's codes secret for long either. What protects a code is the attempt limit (five
 * guesses in a million), its few minutes of life and its single use. The subject in the hash keeps
 * two users' equal codes from having equal hashes.
 */
const codeHash = (subject: string, code: string) => hashSecret(`${subject}:${code}`);

export type CodeRequest =
  | { sent: true; validMinutes: number }
  /** `wait`: the realm's resend wait; `limit`: CODES_PER_USER or CODES_PER_ADDRESS. */
  | { sent: false; reason: 'wait' | 'limit'; retryAfterSeconds: number };

/** Whole seconds from `now` to `moment`, at least one: a Retry-After. */
export const secondsUntil = (now: Date, moment: Date) => Math.max(1, Math.ceil((moment.getTime() - now.getTime()) / 1000));

/**
 * Sends a fresh 6-digit code to the user an identifier (email or username) names, from a client
 * address, replacing the previous one and resetting its failures, unless a code went out less than
 * the realm's resend wait ago or the hourly limits (CODES_PER_USER, CODES_PER_ADDRESS) are reached.
 * An identifier naming no active user is handled the same way, with a code nobody receives, so that
 * the answer (and the wait) tells nothing of who exists. The mail is queued with the code (mail/queue.ts):
 * the answer does not wait for the mail server, and a mail server away for a while delays the mail, not loses it. It is written in `locale`: the page's language.
 */
export async function requestCode(ctx: Context, realm: Realm, identifier: string, address: string, locale: Locale = realmLanguage(realm)): Promise<CodeRequest> {
  const found = await findByIdentifier(ctx, realm, identifier);
  const user = found?.active ? found : undefined;
  const subject = signInSubject(realm.id, found, identifier);
  const now = ctx.clock.now();
  const taken: [AttemptLimit, string][] = [];
  const giveBack = async () => {
    for (const [limit, counted] of taken) await attemptNotCounted(ctx, limit, counted);
  };
  for (const counted of [[CODES_PER_ADDRESS, `${realm.id}:${address}`], [CODES_PER_USER, subject]] as [AttemptLimit, string][]) {
    const attempt = await beginAttempt(ctx, counted[0], counted[1]);
    if (!attempt.allowed) {
      await giveBack();
      return { sent: false, reason: 'limit', retryAfterSeconds: secondsUntil(now, attempt.lockedUntil ?? new Date(now.getTime() + HOUR_MS)) };
    }
    taken.push(counted);
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const resendFrom = new Date(now.getTime() - realm.otpResendWaitSeconds * 1000);
  const values = {
    subject, realmId: realm.id, codeHash: codeHash(subject, code), sentAt: now,
    expiresAt: new Date(now.getTime() + realm.otpCodeValidityMinutes * 60_000),
  };
  // One statement decides between parallel requests: only one of them replaces a code within the wait.
  // The mail is queued with the code (for a name nobody has, the same statement queues nothing).
  const replaced = await inTransaction(ctx, async (tx) => {
    const [row] = await tx.db.insert(otpCodes).values(values).onConflictDoUpdate({
      target: otpCodes.subject,
      set: { realmId: values.realmId, codeHash: values.codeHash, sentAt: values.sentAt, expiresAt: values.expiresAt },
      setWhere: sql`${otpCodes.sentAt} <= ${resendFrom.toISOString()}::timestamptz`,
    }).returning({ subject: otpCodes.subject });
    if (row) {
      const language = mailLocale(user, locale);
      await queueTemplatedMail(tx, {
        to: user?.email ?? '', kind: 'one_time_code', realmId: realm.id, locale: language,
        variables: { realm: { uid: realm.uid, name: realm.name }, user: user ? userVariables(user) : null, code, valid_for: textsIn(language).minutes(realm.otpCodeValidityMinutes) },
      }, Boolean(user));
    }
    return row;
  });
  if (!replaced) {
    await giveBack();
    const [live] = await ctx.db.select({ sentAt: otpCodes.sentAt }).from(otpCodes).where(eq(otpCodes.subject, subject));
    return { sent: false, reason: 'wait', retryAfterSeconds: secondsUntil(now, new Date((live?.sentAt.getTime() ?? now.getTime()) + realm.otpResendWaitSeconds * 1000)) };
  }
  await resetAttempts(ctx, OTP_LIMIT, subject);
  return { sent: true, validMinutes: realm.otpCodeValidityMinutes };
}

export type CodeCheck =
  | { ok: true; user: RealmUser }
  | { ok: false; reason: 'invalid' }
  /** `retryAt`: the end of CODE_FAILURES_PER_DAY's window; null when a new code lifts the lock (OTP_LIMIT). */
  | { ok: false; reason: 'locked'; retryAt: Date | null };

/**
 * Checks a code against the live code of the user an identifier names, and uses it up when it is
 * right and unexpired (which proves the user's address). Every check is an attempt of both
 * CODE_FAILURES_PER_DAY and OTP_LIMIT, taken before the code is looked at; a malformed code, an unknown
 * identifier and an inactive user are wrong codes like any other, with the same queries.
 */
export async function checkCode(ctx: Context, realm: Realm, identifier: string, code: string): Promise<CodeCheck> {
  const found = await findByIdentifier(ctx, realm, identifier);
  const subject = signInSubject(realm.id, found, identifier);
  const daily = await beginAttempt(ctx, CODE_FAILURES_PER_DAY, subject);
  if (!daily.allowed) return { ok: false, reason: 'locked', retryAt: daily.lockedUntil };
  const attempt = await beginAttempt(ctx, OTP_LIMIT, subject);
  if (!attempt.allowed) {
    // No code was checked: this is no wrong code of the day.
    await attemptNotCounted(ctx, CODE_FAILURES_PER_DAY, subject);
    return { ok: false, reason: 'locked', retryAt: null };
  }
  const wellFormed = CODE_FORMAT.test(code);
  // Deleting decides between two parallel checks of the right code: only one of them gets the row.
  const used = await ctx.db.delete(otpCodes).where(and(
    eq(otpCodes.subject, subject),
    eq(otpCodes.codeHash, codeHash(subject, wellFormed ? code : '')),
    gt(otpCodes.expiresAt, ctx.clock.now()),
  )).returning({ subject: otpCodes.subject });
  if (!used.length || !wellFormed || !found?.active) {
    attemptFailed(OTP_LIMIT, attempt);
    attemptFailed(CODE_FAILURES_PER_DAY, daily);
    return { ok: false, reason: 'invalid' };
  }
  await attemptSucceeded(ctx, OTP_LIMIT, subject);
  await attemptSucceeded(ctx, CODE_FAILURES_PER_DAY, subject);
  // The code was read at the address: it is proven now (otp mode's password sign-in waits for this).
  if (found.emailVerifiedAt === null) await proveAddress(ctx, found.id);
  return { ok: true, user: found };
}
