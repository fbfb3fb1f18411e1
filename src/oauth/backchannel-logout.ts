import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { outboundRequest } from '../net/outbound.js';
import { PermanentFailure, tripledBackoff, type TaskQueue } from '../queue/tasks.js';
import { oauthClients } from '../tables/oauth.js';
import { realmSessions, realmUsers, realms } from '../tables/realms.js';
import { sessionIdClaim } from './id-token.js';
import { issuerOf } from './metadata.js';
import { signJwt } from './jws.js';
import { currentSigningKey } from './signing-keys.js';

/**
 * Queued by the database when a realm session ends (the trigger of migrations 0025 and 0031), one per client to tell,
 * with what the logout token names: the session and user may be deleted by the time it runs (a deleted user's
 * sessions end first, then go with the user). Tasks queued before migration 0031 carry only the ids.
 */
interface EndedSession {
  session_id: number;
  client_id: number;
  session_hash?: string;
  user_uuid?: string;
  realm_id?: number;
}

const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const LOGOUT_TOKEN_LIFETIME_S = 120;

/**
 * OpenID Connect Back-Channel Logout 1.0: a logout token (a JWT naming the user and the session) POSTed to the
 * client's registered address through the outbound-request guard; a failure is tried again with a growing wait.
 */
export const backchannelLogoutQueue: TaskQueue<EndedSession> = {
  name: 'oidc-backchannel-logout',
  leaseMs: 60_000,
  maxAttempts: 6,
  backoffMs: tripledBackoff(10_000),
  async run(ctx, payload) {
    const row = payload.session_hash && payload.user_uuid && payload.realm_id ? await namedIn(ctx, payload) : await readFromSession(ctx, payload);
    // The client or its address is gone, or the realm's users or session were removed since: no one to tell.
    if (!row?.uri) return;
    const request = await outboundRequest(row.uri, {
      allowPrivate: ctx.config.outboundAllowPrivate, method: 'POST', timeoutMs: 10_000, maxBytes: 64 * 1024, keepBytes: 0,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: await logoutToken(ctx, row) }).toString(),
    });
    if (request.kind === 'refused') throw new PermanentFailure(request.detail);
    if (request.kind !== 'answered') throw new Error(request.detail);
    if (request.status < 200 || request.status >= 300) throw new Error(`the client answered ${request.status}`);
  },
};

/** The logout token's facts from the payload, with the client's address and the realm's uid as they are now. */
async function namedIn(ctx: Context, payload: EndedSession) {
  const [row] = await ctx.db.select({ uri: oauthClients.backchannelLogoutUri, clientUid: oauthClients.uid, realmId: realms.id, realmUid: realms.uid })
    .from(oauthClients).innerJoin(realms, eq(realms.id, oauthClients.realmId))
    .where(and(eq(oauthClients.id, payload.client_id), eq(realms.id, payload.realm_id!)));
  return row && { ...row, sessionHash: payload.session_hash!, userUuid: payload.user_uuid! };
}

/** A task queued before migration 0031: the facts read from the session, while it still exists. */
async function readFromSession(ctx: Context, payload: EndedSession) {
  const [row] = await ctx.db.select({
    uri: oauthClients.backchannelLogoutUri, clientUid: oauthClients.uid, realmId: realms.id, realmUid: realms.uid,
    sessionHash: realmSessions.sessionHash, userUuid: realmUsers.uuid,
  }).from(realmSessions)
    .innerJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
    .innerJoin(realms, eq(realms.id, realmSessions.realmId))
    .innerJoin(oauthClients, eq(oauthClients.id, payload.client_id))
    .where(eq(realmSessions.id, payload.session_id));
  return row;
}

async function logoutToken(ctx: Context, row: { realmId: number; realmUid: string; clientUid: string; sessionHash: string; userUuid: string }): Promise<string> {
  const key = await currentSigningKey(ctx, row.realmId);
  return signJwt(key, 'logout+jwt', {
    iss: issuerOf(ctx, { uid: row.realmUid }), aud: row.clientUid, sub: row.userUuid,
    sid: sessionIdClaim(row.sessionHash), events: { [LOGOUT_EVENT]: {} }, jti: randomUUID(),
  }, { now: ctx.clock.now(), lifetime: LOGOUT_TOKEN_LIFETIME_S });
}
