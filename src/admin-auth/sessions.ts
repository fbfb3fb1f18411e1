import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { AppError, FieldErrors, unauthorized } from '../http/errors.js';
import { redactUrl } from '../http/logging.js';
import { UNKNOWN_ACCOUNT_HASH, verifyPassword } from '../security/passwords.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { logoutUrls } from './api-access.js';
import { getTeamMember, normalizeEmail, type TeamMemberBody } from './team.js';
import { adminSessions, admins } from './tables.js';

export const MAX_FAILED_SIGN_INS = 10;
export const LOCK_MINUTES = 15;
export const SESSION_HOURS = 12;

export interface SignedIn {
  admin: TeamMemberBody;
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
}

const refused = () => unauthorized('Invalid email or password');

/** Ten failed sign-ins lock the member for fifteen minutes; a success resets the count. */
export async function signIn(ctx: Context, email: string | undefined, password: string | undefined): Promise<SignedIn> {
  const errors = new FieldErrors();
  if (!email?.trim()) errors.add('email', "can't be blank");
  if (!password) errors.add('password', "can't be blank");
  errors.throwIfAny();
  const now = ctx.clock.now();
  const [admin] = await ctx.db.select().from(admins).where(eq(admins.email, normalizeEmail(email!)));
  const matches = await verifyPassword(password!, admin?.passwordHash ?? UNKNOWN_ACCOUNT_HASH);
  if (!admin) throw refused();
  if (admin.lockedUntil && admin.lockedUntil > now) {
    throw new AppError(429, [`Too many failed sign-ins: try again after ${admin.lockedUntil.toISOString()}`]);
  }
  if (!matches || !admin.active) {
    if (!matches) {
      const failures = (admin.lockedUntil ? 0 : admin.failedSignIns) + 1;
      const locked = failures >= MAX_FAILED_SIGN_INS;
      await ctx.db.update(admins).set({
        failedSignIns: locked ? 0 : failures,
        lockedUntil: locked ? new Date(now.getTime() + LOCK_MINUTES * 60_000) : null,
      }).where(eq(admins.id, admin.id));
    }
    throw refused();
  }
  if (admin.failedSignIns || admin.lockedUntil) {
    await ctx.db.update(admins).set({ failedSignIns: 0, lockedUntil: null }).where(eq(admins.id, admin.id));
  }
  const sessionId = randomSecret();
  const csrfToken = randomSecret();
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
  await ctx.db.insert(adminSessions).values({
    adminId: admin.id, sessionHash: hashSecret(sessionId), csrfHash: hashSecret(csrfToken), expiresAt, createdAt: now,
  });
  return { admin: await getTeamMember(ctx, admin.id), sessionId, csrfToken, expiresAt };
}

/**
 * Ends the session, then tells every registered application (spec 5.1): a GET to each logout URL,
 * all at once, each with a short timeout. The sign-out answer never waits for them.
 */
export async function signOut(ctx: Context, sessionRowId: number): Promise<void> {
  await ctx.db.delete(adminSessions).where(eq(adminSessions.id, sessionRowId));
  const urls = await logoutUrls(ctx);
  void notifyLogoutUrls(ctx, urls);
}

export const LOGOUT_CALL_TIMEOUT_MS = 3000;

async function notifyLogoutUrls(ctx: Context, urls: string[]): Promise<void> {
  await Promise.all(urls.map(async (url) => {
    try {
      const response = await fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(LOGOUT_CALL_TIMEOUT_MS) });
      await response.body?.cancel();
    } catch (err) {
      // The address may carry a secret in its query; an error message may quote the address.
      const shown = redactUrl(url);
      ctx.log.warn({ logoutUrl: shown, reason: (err as Error).message.replaceAll(url, shown) }, 'sign-out call to an application failed');
    }
  }));
}
