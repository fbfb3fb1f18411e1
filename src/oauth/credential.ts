import { and, eq, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { credentialColumns, firstRow, judge, remembered, rememberedCustomer, type Customer, type Resolution } from '../realms/credential.js';
import type { Realm } from '../realms/realms.js';
import { realmSessions, realmUsers, realms } from '../tables/realms.js';
import { hashSecret } from '../security/secrets.js';
import { oauthAccessTokens } from '../tables/oauth.js';

/**
 * An OAuth access token as a credential: it lives as long as the realm session that authorized it
 * (spec 5.2 rule 9), so it resolves to that session and is judged as the session is.
 */

/**
 * The realm with this uid, and in the same indexed query the access token (by its SHA-256 hash),
 * its session and user. A token of another realm's session is not recognized here.
 */
const realmWithToken = (db: Db) => prepared(db, 'customer_realm_token', (d, name) => d
  .select({ ...credentialColumns, tokenRevokedAt: oauthAccessTokens.revokedAt, tokenScope: oauthAccessTokens.scope, tokenClientId: oauthAccessTokens.clientId })
  .from(realms)
  .leftJoin(oauthAccessTokens, eq(oauthAccessTokens.tokenHash, sql.placeholder('hash')))
  .leftJoin(realmSessions, and(eq(realmSessions.id, oauthAccessTokens.sessionId), eq(realmSessions.realmId, realms.id)))
  .leftJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
  .where(eq(realms.uid, sql.placeholder('uid')))
  .prepare(name));

/** A bearer token with its session, user and realm, wherever the realm: one indexed query. */
const tokenAnywhere = (db: Db) => prepared(db, 'customer_token', (d, name) => d
  .select({ ...credentialColumns, tokenRevokedAt: oauthAccessTokens.revokedAt })
  .from(oauthAccessTokens)
  .innerJoin(realmSessions, eq(realmSessions.id, oauthAccessTokens.sessionId))
  .innerJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
  .innerJoin(realms, eq(realms.id, realmSessions.realmId))
  .where(eq(oauthAccessTokens.tokenHash, sql.placeholder('hash')))
  .prepare(name));

const tokenScope = (realmUid: string) => `token:${realmUid}`;

/** The live customer of a bearer token presented to a realm, when the cache alone tells (`rememberedCustomer`). */
export const rememberedTokenCustomer = (ctx: Context, realmUid: string, bearer: string): Customer | undefined =>
  rememberedCustomer(ctx, tokenScope(realmUid), bearer);

/**
 * A bearer token presented to a realm. `undefined` when the realm is unknown or inactive; `null`
 * when the realm is there but the token is not one of its own (the caller may then try the cookie).
 */
export async function resolveRealmToken(ctx: Context, realmUid: string, bearer: string): Promise<{ realm: Realm; resolution: Resolution | null; scope: string[]; clientId: number | null } | undefined> {
  const row = await remembered(ctx, tokenScope(realmUid), bearer, (hash) => realmWithToken(ctx.db).execute({ hash, uid: realmUid }).then(firstRow));
  if (!row || !row.realm.active) return undefined;
  return { realm: row.realm, resolution: row.session ? await judge(ctx, row) : null, scope: row.tokenScope?.split(' ') ?? [], clientId: row.tokenClientId ?? null };
}

/** A bearer token alone, wherever its realm (the profile API's paths name none). Undefined when never issued. */
export async function resolveToken(ctx: Context, bearer: string): Promise<{ realm: Realm; resolution: Resolution } | undefined> {
  const row = firstRow(await tokenAnywhere(ctx.db).execute({ hash: hashSecret(bearer) }));
  if (!row) return undefined;
  return { realm: row.realm, resolution: row.realm.active ? await judge(ctx, row) : 'user_session' };
}
