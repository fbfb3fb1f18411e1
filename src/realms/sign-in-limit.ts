import { sql } from 'drizzle-orm';
import { lockedUntilSql, type AttemptLimit } from '../attempts/limit.js';

/** Facts page: ten failed password sign-ins lock the user (or a name nobody has) for fifteen minutes. */
export const SIGN_IN_LIMIT: AttemptLimit = { scope: 'realm_sign_in', max: 10, lockMs: 15 * 60_000, lockout: 'realm_user' };

/**
 * Wrong one-time codes of a user (or a name nobody has) in a window of 24 hours from the first: past
 * twenty, every check is refused, the right code included, until the window ends or the password is
 * reset. A new code does not restart it, so asking for codes again and again gives no more guesses.
 * Here rather than in otp/ so that a password reset can clear it.
 */
export const CODE_FAILURES_PER_DAY: AttemptLimit = { scope: 'otp_code_day', max: 20, windowMs: 24 * 60 * 60_000, lockout: 'realm_user' };

/** Who the attempts of an identifier count against: the user it names, or the name itself when nobody has it. */
export const signInSubject = (realmId: number, user: { id: number } | undefined, identifier: string) =>
  user ? `${realmId}:user:${user.id}` : `${realmId}:name:${identifier.trim().toLowerCase()}`;

/** The end of the sign-in lock of each selected realm user, as a column of a query over realm_users. */
export const signInLockedUntil = (now: Date) =>
  lockedUntilSql(SIGN_IN_LIMIT, sql`realm_users.realm_id || ':user:' || realm_users.id`, now);
