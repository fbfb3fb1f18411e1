import { and, eq, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { hashSecret } from '../security/secrets.js';
import type { Realm } from './realms.js';
import { isDueForTouch, isLive, touchSession, type LiveSession } from './sessions.js';
import { realmSessions, realmUsers, realms } from '../tables/realms.js';
import type { RealmUser } from './users.js';

/**
 * The realm-session credential: who a realm session (its cookie, or an OAuth token tied to it) acts
 * for. The one place that judges a session alive; the customers API, the realm pages and the OAuth
 * authorize endpoint all ask it.
 */

/** A live session of an active user of an active realm. */
export interface Customer {
  realm: Realm;
  user: RealmUser;
  session: LiveSession;
}

/** What a credential lookup found: a live customer, or which of spec 7's two 401s applies. */
export type Resolution = Customer | 'user_session' | 'grant_expired';

/** A realm with the session (and user) a credential names, if it names one of that realm. */
export interface CredentialRow {
  realm: Realm;
  session: LiveSession & { realmId: number } | null;
  user: RealmUser | null;
  /** When the credential is an OAuth token: when it was revoked, the scope it was granted, and its client. */
  tokenRevokedAt?: Date | null;
  tokenScope?: string | null;
  tokenClientId?: number | null;
}

const sessionColumns = {
  id: realmSessions.id, userId: realmSessions.userId, realmId: realmSessions.realmId, expiresAt: realmSessions.expiresAt,
  revokedAt: realmSessions.revokedAt, impersonatorId: realmSessions.impersonatorId, lastUsedAt: realmSessions.lastUsedAt,
  createdAt: realmSessions.createdAt,
};

/** The columns of a credential row, for queries that find the session another way (an OAuth token). */
export const credentialColumns = { realm: realms, session: sessionColumns, user: realmUsers };

/** The realm with this uid, and in the same indexed query the session the cookie names, with its user. */
const realmWithCookie = (db: Db) => prepared(db, 'customer_realm_cookie', (d, name) => d
  .select(credentialColumns)
  .from(realms)
  .leftJoin(realmSessions, and(eq(realmSessions.sessionHash, sql.placeholder('hash')), eq(realmSessions.realmId, realms.id)))
  .leftJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
  .where(eq(realms.uid, sql.placeholder('uid')))
  .prepare(name));

export const firstRow = <T>(rows: T[]) => rows[0] as CredentialRow | undefined;

/** A credential's key in the `customers` cache: its kind and realm (`token:acme`), and its secret's hash. */
const credentialKey = (scope: string, hash: string) => `${scope}:${hash}`;

/**
 * The live customer a credential names, when the cache alone tells: its row is kept, `judge` would find it live, and
 * its use is not due to be written back. Undefined otherwise, and the caller asks `remembered` and `judge`. A request
 * answered from the cache then needs no promise to know its user.
 */
export function rememberedCustomer(ctx: Context, scope: string, secret: string): Customer | undefined {
  const now = ctx.clock.now();
  const row = ctx.caches.of<CredentialRow>('customers').get(credentialKey(scope, hashSecret(secret)), now);
  if (!row?.session || !row.user || !row.realm.active || !row.user.active || row.tokenRevokedAt) return undefined;
  if (!isLive(row.session, now) || isDueForTouch(row.session, now)) return undefined;
  return { realm: row.realm, user: row.user, session: row.session };
}

/**
 * A credential's row from the cache when it was found before, otherwise from the database (then
 * kept, tagged with its realm, user and session so that a change of any drops it).
 */
export async function remembered(ctx: Context, scope: string, secret: string, load: (hash: string) => Promise<CredentialRow | undefined>): Promise<CredentialRow | undefined> {
  const hash = hashSecret(secret);
  const key = credentialKey(scope, hash);
  const now = ctx.clock.now();
  const credentialRows = ctx.caches.of<CredentialRow>('customers');
  const cached = credentialRows.get(key, now);
  // Only the live path is sped up: a credential that looks dead is confirmed by the database, since
  // another process may have renewed its session meanwhile.
  if (cached?.session && isLive(cached.session, now) && !cached.tokenRevokedAt) return cached;
  const row = await load(hash);
  // Only credentials that were found are kept: garbage tokens must not fill the cache.
  if (row?.session && row.user) {
    credentialRows.set(key, row, now, [`realm:${row.realm.id}`, `user:${row.user.id}`, `session:${row.session.id}`]);
  }
  return row;
}

/** Applies spec 7 to a found session: inactive user first (user_session), then a dead grant. */
export async function judge(ctx: Context, row: CredentialRow): Promise<Resolution> {
  if (!row.session || !row.user) return 'user_session';
  if (!row.user.active) return 'user_session';
  if (row.tokenRevokedAt || !isLive(row.session, ctx.clock.now())) return 'grant_expired';
  // Sliding expiry: a credential in use keeps its session alive (and its last use is shown in the profile's session list).
  await touchSession(ctx, row.realm, row.session);
  return { realm: row.realm, user: row.user, session: row.session };
}

const cookieScope = (realmUid: string) => `cookie:${realmUid}`;

/** The live customer of a realm session cookie, when the cache alone tells (`rememberedCustomer`). */
export const rememberedSessionCustomer = (ctx: Context, realmUid: string, cookie: string): Customer | undefined =>
  rememberedCustomer(ctx, cookieScope(realmUid), cookie);

/** The realm session a cookie names. `undefined` when the realm is unknown or inactive. */
export async function resolveSession(ctx: Context, realmUid: string, cookie: string | undefined): Promise<{ realm: Realm; resolution: Resolution } | undefined> {
  const row = cookie
    ? await remembered(ctx, cookieScope(realmUid), cookie, (hash) => realmWithCookie(ctx.db).execute({ hash, uid: realmUid }).then(firstRow))
    : firstRow(await realmWithCookie(ctx.db).execute({ hash: hashSecret(''), uid: realmUid }));
  if (!row || !row.realm.active) return undefined;
  return { realm: row.realm, resolution: cookie ? await judge(ctx, row) : 'user_session' };
}
