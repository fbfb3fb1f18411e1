import { and, eq, sql, type Placeholder } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { counters } from '../metrics/counters.js';
import { attemptCounters } from '../tables/attempts.js';

/** How many wrong secrets (or requests) a subject may present, and how long it is then locked out. */
export type AttemptLimit = {
  /** Names the counter; one per kind of secret (admin password, realm password, one-time code...). */
  scope: string;
  max: number;
  /** A sign-in's lock: reaching it adds to the lockouts counter with this `who`. */
  lockout?: 'admin' | 'realm_user';
} & (
  /** A lock of `lockMs` from the attempt that reaches max; null: until the counter is reset (a one-time code stays locked until a new one is sent). */
  | { lockMs: number | null; windowMs?: undefined }
  /**
   * "max per window": the count restarts `windowMs` after the first attempt it holds, and a subject at
   * max is locked until then (or until the counter is reset).
   */
  | { windowMs: number; lockMs?: undefined }
);

export type Attempt =
  /** `last`: if this attempt fails, the subject is locked. */
  | { allowed: true; last: boolean }
  | { allowed: false; lockedUntil: Date | null };

/**
 * Takes one attempt before the secret is checked: the attempt counts as a failure until
 * `attemptSucceeded` says otherwise. The count and the lock are decided by one statement, so under N
 * parallel attempts at most `max` are allowed and the rest are told of the lock; a locked subject's
 * secret is never checked. The attempt that reaches `max` is still allowed (it is an ordinary
 * failure); it starts the lock. When a lock (or the limit's window) ends the count starts again.
 */
export async function beginAttempt(ctx: Pick<Context, 'db' | 'clock'>, limit: AttemptLimit, subject: string): Promise<Attempt> {
  const now = ctx.clock.now();
  const lockUntil = limit.lockMs == null ? null : new Date(now.getTime() + limit.lockMs).toISOString();
  const [row] = await takeAttempt(ctx.db).execute({
    scope: limit.scope, subject, max: limit.max, now: now.toISOString(), lockUntil, windowMs: limit.windowMs ?? null,
  });
  if (row.failures <= limit.max) return { allowed: true, last: row.failures === limit.max };
  return { allowed: false, lockedUntil: row.lockedUntil };
}

// The count never passes max + 1 (locked), so hammering a locked subject changes nothing but the time.
const takeAttempt = (db: Db) => prepared(db, 'attempt_take', (d, name) => {
  const max = sql`${sql.placeholder('max')}::integer`;
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  const lockUntil = sql`${sql.placeholder('lockUntil')}::timestamptz`;
  const window = sql`(${sql.placeholder('windowMs')}::double precision * interval '1 millisecond')`;
  const lockOver = sql`(${attemptCounters.lockedUntil} is not null and ${attemptCounters.lockedUntil} <= ${now})`;
  const windowOver = sql`coalesce(${attemptCounters.windowEndsAt} <= ${now}, false)`;
  const restart = sql`(${lockOver} or ${windowOver})`;
  const next = sql`case when ${restart} then 1 else least(${attemptCounters.failures} + 1, ${max} + 1) end`;
  // Null without a window: a windowless count never ends by itself.
  const ends = sql`case when ${restart} then ${now} + ${window} else ${attemptCounters.windowEndsAt} end`;
  return d.insert(attemptCounters).values({
    scope: sql`${sql.placeholder('scope')}`,
    subject: sql`${sql.placeholder('subject')}`,
    failures: 1,
    lockedUntil: sql`case when 1 >= ${max} then coalesce(${lockUntil}, ${now} + ${window}) end`,
    windowEndsAt: sql`${now} + ${window}`,
    updatedAt: now,
  }).onConflictDoUpdate({
    target: [attemptCounters.scope, attemptCounters.subject],
    set: {
      failures: next,
      lockedUntil: sql`case when ${next} = ${max} then coalesce(${lockUntil}, ${ends})
        when ${next} > ${max} then ${attemptCounters.lockedUntil} end`,
      windowEndsAt: ends,
      updatedAt: now,
    },
  }).returning({ failures: attemptCounters.failures, lockedUntil: attemptCounters.lockedUntil }).prepare(name);
});

/**
 * The secret presented was wrong: answers whether that started the subject's lock, and counts the
 * lockout when it did (`limit.lockout`).
 */
export function attemptFailed(limit: AttemptLimit, attempt: Attempt): boolean {
  const locked = attempt.allowed && attempt.last;
  if (locked && limit.lockout) counters.lockouts.inc({ who: limit.lockout });
  return locked;
}

/**
 * The right secret: the subject's count starts again (a lock it was under has already refused it).
 * Under a window, only this attempt is taken back: the failures counted in the window stay.
 */
export async function attemptSucceeded(ctx: Pick<Context, 'db'>, limit: AttemptLimit, subject: string): Promise<void> {
  await (limit.windowMs === undefined ? resetAttempts(ctx, limit, subject) : attemptNotCounted(ctx, limit, subject));
}

/**
 * Takes back one allowed attempt that turned out not to count (the right secret under a window, a
 * request refused for another reason). A count that reached max + 1 under parallel attempts stays a
 * little higher than the attempts that count: never lower, so the limit still holds.
 */
export async function attemptNotCounted(ctx: Pick<Context, 'db'>, limit: AttemptLimit, subject: string): Promise<void> {
  await takeBack(ctx.db).execute({ scope: limit.scope, subject, max: limit.max });
}

const takeBack = (db: Db) => prepared(db, 'attempt_take_back', (d, name) => {
  const max = sql`${sql.placeholder('max')}::integer`;
  return d.update(attemptCounters).set({
    failures: sql`greatest(${attemptCounters.failures} - 1, 0)`,
    lockedUntil: sql`case when ${attemptCounters.failures} - 1 >= ${max} then ${attemptCounters.lockedUntil} end`,
  }).where(and(eq(attemptCounters.scope, sql.placeholder('scope')), eq(attemptCounters.subject, sql.placeholder('subject')))).prepare(name);
});

/** Forgets a subject's failures and lock (a one-time code replaced by a new one, say). */
export async function resetAttempts(ctx: Pick<Context, 'db'>, limit: AttemptLimit, subject: string): Promise<void> {
  await forgetAttempts(ctx.db).execute({ scope: limit.scope, subject });
}

const forgetAttempts = (db: Db) => prepared(db, 'attempt_forget', (d, name) =>
  forgetting(d, sql.placeholder('scope'), sql.placeholder('subject')).prepare(name));

/** The delete that forgets a subject's failures; a builder, so that a hot path can fold it into a statement of its own. */
export const forgetting = (db: Db, scope: string | Placeholder, subject: string | Placeholder) => db.delete(attemptCounters)
  .where(and(eq(attemptCounters.scope, scope), eq(attemptCounters.subject, subject)));

/** The end of a subject's lock, or null while it is not locked: for showing it to an admin. */
export function lockedUntilSql(limit: AttemptLimit, subject: ReturnType<typeof sql>, now: Date) {
  // Spelled out: inside select fields Drizzle renders columns unqualified.
  return sql<Date | null>`(select ac.locked_until from attempt_counters ac
    where ac.scope = ${limit.scope} and ac.subject = ${subject}
    and ac.failures >= ${limit.max} and ac.locked_until > ${now.toISOString()}::timestamptz)`
    .mapWith(attemptCounters.lockedUntil);
}
