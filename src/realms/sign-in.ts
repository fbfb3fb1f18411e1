import { and, eq, sql } from 'drizzle-orm';
import { attemptFailed, beginAttempt, forgetting } from '../attempts/limit.js';
import { attemptCounters } from '../tables/attempts.js';
import { SIGN_IN_LIMIT, signInSubject } from './sign-in-limit.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { eventWrites, recordEvent } from '../events/events.js';
import { businessEvents } from '../tables/events.js';
import { businessEventWebhook } from '../events/log.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';
import { subscribedTypes } from '../webhooks/subscribers.js';
import { UNKNOWN_ACCOUNT_HASH, verifyPassword } from '../security/passwords.js';
import type { Realm } from './realms.js';
import { resolveSession } from './credential.js';
import { endRealmSession, newSession, type SessionOrigin, type StartedSession } from './sessions.js';
import { realmSessions, realmUsers } from '../tables/realms.js';
import type { RealmUser } from './users.js';

export type SignInResult =
  | { ok: true; user: RealmUser; session: StartedSession }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; lockedUntil: Date | null };

/** Emails carry an "@" and usernames never do, so one identifier names at most one user. */
export async function findByIdentifier(ctx: Context, realm: Realm, identifier: string): Promise<RealmUser | undefined> {
  const text = identifier.trim().toLowerCase();
  if (!text) return undefined;
  const [user] = await (text.includes('@') ? userByEmail : userByUsername)(ctx.db).execute({ realmId: realm.id, text });
  return user;
}

// Prepared (one per kind of identifier): every sign-in starts with one.
const userBy = (column: typeof realmUsers.email | typeof realmUsers.username, statement: string) => (db: Db) => prepared(db, statement, (d, name) => d
  .select().from(realmUsers)
  .where(and(eq(realmUsers.realmId, sql.placeholder('realmId')), sql`lower(${column}) = ${sql.placeholder('text')}`))
  .prepare(name));
const userByEmail = userBy(realmUsers.email, 'realm_user_by_email');
const userByUsername = userBy(realmUsers.username, 'realm_user_by_username');

/**
 * In `otp` mode the code mailed to the address is what confirms a sign-up: until one was used
 * (`email_verified_at`), the account's password opens nothing, as for an account still pending.
 */
const awaitsFirstCode = (realm: Realm, user: RealmUser) => realm.activationMode === 'otp' && user.emailVerifiedAt === null;

/**
 * Signs a realm user in with email or username and password. Every refusal looks the same from
 * outside (unknown names are counted, and cost the same scrypt work; an inactive user, or one awaiting
 * its first code, is a wrong password) except a lock, which the user is
 * told of. A success starts a fresh session and records `user_login_log`; a failure of a known user
 * records `user_login_attempt_failed_log`.
 */
export async function signInWithPassword(ctx: Context, realm: Realm, identifier: string, password: string, origin: SessionOrigin = {}): Promise<SignInResult> {
  const user = await findByIdentifier(ctx, realm, identifier);
  const subject = signInSubject(realm.id, user, identifier);
  const failed = () => user && recordEvent(ctx, { realmId: realm.id, userId: user.id, type: 'user_login_attempt_failed_log' });
  const attempt = await beginAttempt(ctx, SIGN_IN_LIMIT, subject);
  if (!attempt.allowed) {
    await failed();
    return { ok: false, reason: 'locked', lockedUntil: attempt.lockedUntil };
  }
  const matches = await verifyPassword(password, user?.passwordHash ?? UNKNOWN_ACCOUNT_HASH);
  if (!user || !matches || !user.active || !user.passwordHash || awaitsFirstCode(realm, user)) {
    attemptFailed(SIGN_IN_LIMIT, attempt);
    await failed();
    return { ok: false, reason: 'invalid' };
  }
  const { secret, row } = newSession(ctx, realm, user.id, origin);
  const write = async (db: Db) => {
    const [written] = await signedIn(db).execute({
      scope: SIGN_IN_LIMIT.scope, subject, realmId: realm.id, userId: user.id, sessionHash: row.sessionHash,
      expiresAt: row.expiresAt.toISOString(), createdAt: row.createdAt.toISOString(), userAgent: row.userAgent,
    });
    const event = {
      id: written.eventId, realmId: realm.id, userId: user.id, type: 'user_login_log', impersonated: false, impersonatorId: null,
      properties: {}, createdAt: row.createdAt,
    };
    await emitWebhookEvent(ctx, db, businessEventWebhook(event, user.email, realm.uid));
    return written;
  };
  // The statement alone is atomic: a transaction (BEGIN and COMMIT, two more round trips) only when an endpoint
  // subscribes to the event, so that its outbox row commits with the session.
  const subscribed = (await subscribedTypes(ctx.db, ctx.clock, ctx.caches)).has('user_login_log');
  const started = subscribed ? await ctx.db.transaction(write) : await write(ctx.db);
  return { ok: true, user, session: { id: started.id, secret, expiresAt: row.expiresAt } };
}

/**
 * What a right password writes, in one statement (one round trip, next to the hash that is the
 * sign-in's real cost): the subject's failures are forgotten, `user_login_log` is recorded and
 * counted, and the new session is stored; it answers the session's and the event's ids.
 */
const signedIn = (db: Db) => prepared(db, 'realm_sign_in_success', (d, name) => {
  const userId = sql`${sql.placeholder('userId')}::integer`;
  const createdAt = sql`${sql.placeholder('createdAt')}::timestamptz`;
  const forgotten = d.$with('forgotten').as(forgetting(d, sql.placeholder('scope'), sql.placeholder('subject')).returning({ subject: attemptCounters.subject }));
  const event = eventWrites(d, { realmId: sql`${sql.placeholder('realmId')}::integer`, userId, type: 'user_login_log', at: createdAt });
  const logged = d.$with('logged').as(d.insert(businessEvents).values(event.values).returning({ id: businessEvents.id }));
  return d.with(forgotten, logged, ...event.counts).insert(realmSessions).values({
    realmId: sql`${sql.placeholder('realmId')}::integer`, userId, sessionHash: sql`${sql.placeholder('sessionHash')}::text`,
    expiresAt: sql`${sql.placeholder('expiresAt')}::timestamptz`, createdAt, lastUsedAt: createdAt,
    userAgent: sql`${sql.placeholder('userAgent')}::text`, authMethods: sql`'{pwd}'::text[]`,
  }).returning({ id: realmSessions.id, eventId: sql<number>`(select id from logged)` }).prepare(name);
});

/**
 * Signs out the session a realm cookie names: it ends (with every access token tied to it) and
 * `user_logout_log` is recorded. A cookie naming no live session changes nothing.
 */
export async function signOut(ctx: Context, realm: Realm, cookie: string | undefined): Promise<boolean> {
  const found = await resolveSession(ctx, realm.uid, cookie);
  const customer = found?.resolution;
  if (typeof customer !== 'object') return false;
  await endRealmSession(ctx, customer.session.id);
  await recordEvent(ctx, { realmId: realm.id, userId: customer.user.id, type: 'user_logout_log', impersonatorId: customer.session.impersonatorId });
  return true;
}
