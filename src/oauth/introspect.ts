import { eq } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Context } from '../context.js';
import { isLive } from '../realms/sessions.js';
import { hashSecret } from '../security/secrets.js';
import { oauthAccessTokens, oauthClients, oauthClientTokens, oauthRefreshTokens } from '../tables/oauth.js';
import { realmSessions, realmUsers, realms } from '../tables/realms.js';
import { authenticateClient, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidClient, InvalidRequest } from './errors.js';
import { issuerOf } from './metadata.js';

export type Introspection = { active: false } | {
  active: true;
  scope: string;
  client_id: string;
  token_type: 'Bearer' | 'refresh_token';
  /** The user; for a client_credentials token, the client itself. */
  sub: string;
  iss: string;
  iat: number;
  exp?: number;
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A token's row by its hash, in either token table, with what it joins to: its client, session, user and realm. */
function tokenByHash<Extra extends SelectedFields>(ctx: Context, table: typeof oauthAccessTokens | typeof oauthRefreshTokens, extra: Extra, hash: string) {
  return ctx.db.select({
    scope: table.scope, revokedAt: table.revokedAt, createdAt: table.createdAt,
    clientUid: oauthClients.uid, realmUid: realms.uid, realmActive: realms.active,
    sessionExpiresAt: realmSessions.expiresAt, sessionRevokedAt: realmSessions.revokedAt, userUuid: realmUsers.uuid, userActive: realmUsers.active,
    ...extra,
  }).from(table)
    .innerJoin(oauthClients, eq(oauthClients.id, table.clientId)).innerJoin(realms, eq(realms.id, oauthClients.realmId))
    .innerJoin(realmSessions, eq(realmSessions.id, table.sessionId)).innerJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
    .where(eq(table.tokenHash, hash));
}

async function accessToken(ctx: Context, hash: string) {
  const [row] = await tokenByHash(ctx, oauthAccessTokens, {}, hash);
  return row && { ...row, type: 'Bearer' as const, expiresAt: null };
}

async function refreshToken(ctx: Context, hash: string) {
  const [row] = await tokenByHash(ctx, oauthRefreshTokens, {
    usedAt: oauthRefreshTokens.usedAt, expiresAt: oauthRefreshTokens.expiresAt, familyExpiresAt: oauthRefreshTokens.familyExpiresAt,
  }, hash);
  if (!row) return undefined;
  const expiresAt = row.expiresAt < row.familyExpiresAt ? row.expiresAt : row.familyExpiresAt;
  return { ...row, revokedAt: row.revokedAt ?? row.usedAt, type: 'refresh_token' as const, expiresAt };
}

/** A client_credentials token: no session nor user behind it, alive until it expires; its subject is the client. */
async function clientToken(ctx: Context, hash: string) {
  const [row] = await ctx.db.select({
    scope: oauthClientTokens.scope, revokedAt: oauthClientTokens.revokedAt, createdAt: oauthClientTokens.createdAt, expiresAt: oauthClientTokens.expiresAt,
    clientUid: oauthClients.uid, realmUid: realms.uid, realmActive: realms.active,
  }).from(oauthClientTokens).innerJoin(oauthClients, eq(oauthClients.id, oauthClientTokens.clientId)).innerJoin(realms, eq(realms.id, oauthClients.realmId))
    .where(eq(oauthClientTokens.tokenHash, hash));
  return row && { ...row, type: 'Bearer' as const, userUuid: row.clientUid, userActive: true, sessionExpiresAt: row.expiresAt, sessionRevokedAt: null };
}

/**
 * RFC 7662 token introspection, for the realm's confidential clients (its resource servers): whether an access or
 * refresh token of the realm is alive, and for whom. A token of another realm, revoked, spent, expired, or of an
 * ended session or an inactive user is `{"active": false}`, with nothing more said.
 */
export async function introspect(ctx: Context, realmUid: string, form: Form, presented: () => PresentedClient): Promise<Introspection> {
  const client = await authenticateClient(ctx, realmUid, presented(), false);
  if (!client.confidential) throw new InvalidClient(false, 'only a confidential client may introspect tokens');
  const token = field(form, 'token');
  const hint = field(form, 'token_type_hint');
  if (!token) throw new InvalidRequest('token is missing');
  const hash = hashSecret(token);
  const lookups = hint === 'refresh_token' ? [refreshToken, accessToken, clientToken] : [accessToken, refreshToken, clientToken];
  let row: Awaited<ReturnType<typeof accessToken | typeof refreshToken | typeof clientToken>>;
  for (const lookup of lookups) if ((row = await lookup(ctx, hash))) break;
  const now = ctx.clock.now();
  if (!row || row.realmUid !== realmUid || !row.realmActive || row.revokedAt || !row.userActive
    || !isLive({ expiresAt: row.sessionExpiresAt, revokedAt: row.sessionRevokedAt }, now) || (row.expiresAt && row.expiresAt <= now)) {
    return { active: false };
  }
  return {
    active: true, scope: row.scope, client_id: row.clientUid, token_type: row.type, sub: row.userUuid, iss: issuerOf(ctx, { uid: realmUid }),
    iat: seconds(row.createdAt), ...(row.expiresAt ? { exp: seconds(row.expiresAt) } : {}),
  };
}
