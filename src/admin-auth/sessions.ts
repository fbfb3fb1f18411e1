import { and, eq, gt } from 'drizzle-orm';
import type { Context } from '../context.js';
import { FieldErrors, secondFactorRequired, signInChallengeExpired, tooManyAttempts, unauthorized } from '../errors/index.js';
import { attemptFailed, attemptSucceeded, beginAttempt, type AttemptLimit } from '../attempts/limit.js';
import { actorOf, NO_ONE, recordAudit } from '../audit/log.js';
import type { AdminPrincipal, EffectivePermissions } from './principal.js';
import { principalFromSession } from './credential.js';
import { redactUrl } from '../http/logging.js';
import { outboundRequest } from '../net/outbound.js';
import { UNKNOWN_ACCOUNT_HASH, verifyPassword } from '../security/passwords.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { logoutUrls } from './api-access.js';
import { acceptPasskey, passkeySignInOptions } from './passkeys.js';
import { acceptTotp, hasSecondFactor, hasTotp, secondFactorPolicy, useRecoveryCode } from './second-factors.js';
import { normalizeEmail, teamMemberById, type TeamMemberBody } from './team.js';
import { adminSessions, adminSignInChallenges, admins } from '../tables/admin-auth.js';

/** Ten failed sign-ins lock a member (or an email nobody has) for fifteen minutes. */
export const SIGN_IN_LIMIT: AttemptLimit = { scope: 'admin_sign_in', max: 10, lockMs: 15 * 60_000, lockout: 'admin' };
/** The second step of a sign-in has the same limit, counted per member. */
export const SECOND_FACTOR_LIMIT: AttemptLimit = { ...SIGN_IN_LIMIT, scope: 'admin_second_factor' };
export const SESSION_HOURS = 12;
/** How long the challenge of a password accepted waits for the second factor. */
export const CHALLENGE_MINUTES = 5;

export interface SignedIn {
  admin: TeamMemberBody;
  permissions: EffectivePermissions;
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
  /** The account requires a second factor and the member has none: the session reaches only enrolment. */
  enrolmentOnly: boolean;
}

const refused = () => unauthorized('Invalid email or password');

/** The longest email tried that a failed sign-in's audit record keeps. */
const MAX_TRIED_EMAIL = 320;

/**
 * Attempts are counted per email, whether or not a member has it, and an unknown email costs the
 * same password hash: the answers and their timing tell nothing of who exists. Every outcome is in the
 * audit log: `sign_in`, `sign_in_failed` (with the email tried, and the member when one has it), and
 * `locked_out` when a failure starts the lock. `address` is the client's.
 */
export async function signIn(ctx: Context, email: string | undefined, password: string | undefined, address: string | null = null): Promise<SignedIn> {
  const errors = new FieldErrors();
  if (!email?.trim()) errors.add('email', "can't be blank");
  if (!password) errors.add('password', "can't be blank");
  errors.throwIfAny();
  const now = ctx.clock.now();
  const subject = normalizeEmail(email!);
  const [admin] = await ctx.db.select().from(admins).where(eq(admins.email, subject));
  const failed = (operation: 'sign_in_failed' | 'locked_out', statusCode: number) => recordAudit(ctx.db, now, {
    actor: { ...NO_ONE, adminId: admin?.id ?? null }, email: subject.slice(0, MAX_TRIED_EMAIL), operation, address, statusCode,
  });
  const attempt = await beginAttempt(ctx, SIGN_IN_LIMIT, subject);
  if (!attempt.allowed) {
    await failed('sign_in_failed', 429);
    throw lockedOut(now, attempt.lockedUntil);
  }
  const matches = await verifyPassword(password!, admin?.passwordHash ?? UNKNOWN_ACCOUNT_HASH);
  if (!admin || !matches || !admin.active) {
    await failed('sign_in_failed', 401);
    if (attemptFailed(SIGN_IN_LIMIT, attempt)) await failed('locked_out', 401);
    throw refused();
  }
  await attemptSucceeded(ctx, SIGN_IN_LIMIT, subject);
  if (await hasSecondFactor(ctx, admin.id)) throw await secondFactorChallenge(ctx, admin.id);
  return openSession(ctx, admin.id, address, (await secondFactorPolicy(ctx)).required);
}

/**
 * The password was right and the member has a second factor: a short-lived challenge (one per member,
 * only its hash kept) that `completeSignIn` takes with a code, answered in the 401 `ATR_SECOND_FACTOR_REQUIRED`.
 */
async function secondFactorChallenge(ctx: Context, adminId: number) {
  const challenge = randomSecret();
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx.delete(adminSignInChallenges).where(eq(adminSignInChallenges.adminId, adminId));
    await tx.insert(adminSignInChallenges).values({
      adminId, challengeHash: hashSecret(challenge), expiresAt: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000), createdAt: now,
    });
  });
  const webauthn = await passkeySignInOptions(ctx, adminId, challenge);
  const methods = [...(await hasTotp(ctx, adminId) ? ['totp'] : []), ...(webauthn ? ['webauthn'] : []), 'recovery_code'];
  return secondFactorRequired(challenge, methods, webauthn ? { webauthn_options: webauthn } : {});
}

export interface SecondStep {
  challenge: string;
  totp?: string;
  recovery_code?: string;
  /** A passkey's answer to the challenge's `webauthn_options` (simplewebauthn's JSON form). */
  webauthn?: object;
}

/**
 * The second step of a sign-in: the challenge of the password step and a code of the member's
 * authenticator app, a passkey's answer to the challenge, or one of its recovery codes (used up). Wrong codes count against the member like
 * wrong passwords (`SECOND_FACTOR_LIMIT`) and are in the audit log; the challenge stays until it expires,
 * so a mistyped code can be typed again, and ends with the sign-in it completes.
 */
export async function completeSignIn(ctx: Context, step: SecondStep, address: string | null = null): Promise<SignedIn> {
  const errors = new FieldErrors();
  if (!step.challenge) errors.add('challenge', "can't be blank");
  if (!step.totp && !step.recovery_code && !step.webauthn) errors.add('totp', "can't be blank");
  errors.throwIfAny();
  const now = ctx.clock.now();
  const [found] = await ctx.db.select({ id: adminSignInChallenges.id, adminId: adminSignInChallenges.adminId }).from(adminSignInChallenges)
    .innerJoin(admins, eq(admins.id, adminSignInChallenges.adminId))
    .where(and(eq(adminSignInChallenges.challengeHash, hashSecret(step.challenge)), gt(adminSignInChallenges.expiresAt, now), eq(admins.active, true)));
  if (!found) throw signInChallengeExpired();
  const subject = `admin:${found.adminId}`;
  const failed = (operation: 'sign_in_failed' | 'locked_out', statusCode: number) => recordAudit(ctx.db, now, {
    actor: { ...NO_ONE, adminId: found.adminId }, operation, address, statusCode,
  });
  const attempt = await beginAttempt(ctx, SECOND_FACTOR_LIMIT, subject);
  if (!attempt.allowed) {
    await failed('sign_in_failed', 429);
    throw lockedOut(now, attempt.lockedUntil);
  }
  const accepted = step.totp ? await acceptTotp(ctx, found.adminId, step.totp)
    : step.recovery_code ? await useRecoveryCode(ctx, found.adminId, step.recovery_code)
      : await acceptPasskey(ctx, found.adminId, step.challenge, step.webauthn!);
  if (!accepted) {
    await failed('sign_in_failed', 401);
    if (attemptFailed(SECOND_FACTOR_LIMIT, attempt)) await failed('locked_out', 401);
    throw unauthorized('Invalid code');
  }
  await attemptSucceeded(ctx, SECOND_FACTOR_LIMIT, subject);
  const ended = await ctx.db.delete(adminSignInChallenges).where(eq(adminSignInChallenges.id, found.id)).returning({ id: adminSignInChallenges.id });
  if (!ended.length) throw signInChallengeExpired();
  return openSession(ctx, found.adminId, address, false);
}

/** A new session of the member, recorded as `sign_in`. */
async function openSession(ctx: Context, adminId: number, address: string | null, enrolmentOnly: boolean): Promise<SignedIn> {
  const now = ctx.clock.now();
  const sessionId = randomSecret();
  const csrfToken = csrfTokenOf(sessionId);
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
  await ctx.db.transaction(async (tx) => {
    const [session] = await tx.insert(adminSessions).values({
      adminId, sessionHash: hashSecret(sessionId), csrfHash: hashSecret(csrfToken), expiresAt, createdAt: now, enrolmentOnly,
    }).returning({ id: adminSessions.id });
    await recordAudit(tx, now, {
      actor: { adminId, credentialKind: 'session', applicationId: null }, operation: 'sign_in',
      resourceType: 'sessions', resourceId: String(session.id), address, statusCode: 200,
    });
  });
  const member = await teamMemberById(ctx, adminId);
  const signedIn = await principalFromSession(ctx, sessionId);
  return { admin: member, permissions: signedIn!.principal.effectivePermissions(), sessionId, csrfToken, expiresAt, enrolmentOnly };
}

/** The 429 of a locked subject, with `Retry-After`: the console tells the member how long to wait. */
export function lockedOut(now: Date, lockedUntil: Date | null) {
  const locked = tooManyAttempts(lockedUntil);
  if (lockedUntil) locked.headers = { 'retry-after': String(Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000))) };
  return locked;
}

/**
 * The CSRF token of a session, derived one way from the session's secret: `GET /session` can give it
 * back to a reloaded console (which keeps it in memory only) without it being stored anywhere.
 * Knowing it tells nothing of the cookie; only its hash is kept, like the session's.
 */
export function csrfTokenOf(sessionId: string): string {
  return hashSecret(`csrf:${sessionId}`);
}

/** The CSRF token and expiry of the session behind `principal`, whose cookie holds `sessionId`. */
export async function sessionDetails(ctx: Context, principal: AdminPrincipal, sessionId: string): Promise<{ csrfToken: string; expiresAt: Date; enrolmentOnly: boolean } | null> {
  if (principal.sessionId === null) return null;
  const [row] = await ctx.db.select({ expiresAt: adminSessions.expiresAt, enrolmentOnly: adminSessions.enrolmentOnly }).from(adminSessions)
    .where(eq(adminSessions.id, principal.sessionId));
  return row ? { csrfToken: csrfTokenOf(sessionId), expiresAt: row.expiresAt, enrolmentOnly: row.enrolmentOnly } : null;
}

/**
 * Ends the session (recorded as `sign_out`), then tells every registered application (spec 5.1): a GET
 * to each logout URL, all at once, each with a short timeout. The sign-out answer never waits for them.
 */
export async function signOut(ctx: Context, principal: AdminPrincipal, address: string | null = null): Promise<void> {
  const sessionRowId = principal.sessionId!;
  await ctx.db.transaction(async (tx) => {
    await tx.delete(adminSessions).where(eq(adminSessions.id, sessionRowId));
    await recordAudit(tx, ctx.clock.now(), {
      actor: actorOf(principal), operation: 'sign_out', resourceType: 'sessions', resourceId: String(sessionRowId), address, statusCode: 204,
    });
  });
  await tellApplicationsOfSignOut(ctx);
}

/** Spec 5.1: a sign-out (of the administration, or of a site) is told to every registered application, in the background. */
export async function tellApplicationsOfSignOut(ctx: Context): Promise<void> {
  const urls = await logoutUrls(ctx);
  void notifyLogoutUrls(ctx, urls);
}

export const LOGOUT_CALL_TIMEOUT_MS = 3000;
/** The answer is not read: past this much of it the connection is dropped. */
const LOGOUT_ANSWER_BYTES = 64 * 1024;

/** Through the outbound guard: a logout URL in a private range (or a name resolving there) is not called. */
async function notifyLogoutUrls(ctx: Context, urls: string[]): Promise<void> {
  await Promise.all(urls.map(async (url) => {
    const result = await outboundRequest(url, {
      allowPrivate: ctx.config.outboundAllowPrivate, method: 'GET', timeoutMs: LOGOUT_CALL_TIMEOUT_MS, maxBytes: LOGOUT_ANSWER_BYTES, keepBytes: 0,
    });
    if (result.kind === 'answered') return;
    // The address may carry a secret in its query; an error message may quote the address.
    const shown = redactUrl(url);
    ctx.log.warn({ logoutUrl: shown, reason: `${result.kind}: ${result.detail.replaceAll(url, shown)}` }, 'sign-out call to an application failed');
  }));
}
