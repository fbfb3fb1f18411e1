import { and, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { Context } from '../context.js';
import type { DelegatedTokenModel } from '../customers/schema.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import type { Customer } from '../realms/credential.js';
import { seal, unseal } from '../security/sealed.js';
import { secretsKey } from '../security/secrets-key.js';
import type { ProviderTokens } from './flow.js';
import { configurationOf, openidClient, reasonOf } from './provider.js';
import { findIdentityProvider } from './settings.js';
import { delegatedTokens } from '../tables/delegation.js';

/**
 * The provider's tokens kept with a realm session opened by a delegated sign-in, and what GET /me
 * shows of them (spec 2.7 `delegated_token`). An access token about to expire is refreshed with the
 * refresh token, once: one request per process does it (the others wait for it), and between
 * processes a lease on the row decides (the other processes' readers wait for the holder's answer).
 */

export type DelegatedTokenBody = Static<typeof DelegatedTokenModel>;
type Row = typeof delegatedTokens.$inferSelect;

/** Within this of its expiry an access token is refreshed (it still works meanwhile for the readers that do not refresh). */
const REFRESH_AHEAD_MS = 30_000;
/** How long a refresh may hold the row before another process may try. */
const LEASE_MS = 30_000;
const MAX_LIFETIME_S = 10 * 365 * 86_400;

const tokenContext = (sessionId: number, kind: 'access' | 'refresh') => `delegated_tokens:${sessionId}:${kind}`;

const expiryOf = (now: Date, expiresIn: number | undefined) =>
  (typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0
    ? new Date(now.getTime() + Math.min(expiresIn, MAX_LIFETIME_S) * 1000) : null);

/** The columns that store a provider's answer for a session, sealed. */
export function tokenColumns(ctx: Context, sessionId: number, tokens: ProviderTokens, now: Date) {
  const key = secretsKey(ctx.config);
  return {
    sealedAccessToken: seal(key, tokens.accessToken, tokenContext(sessionId, 'access')),
    accessTokenExpiresAt: expiryOf(now, tokens.expiresIn),
    ...(tokens.refreshToken ? { sealedRefreshToken: seal(key, tokens.refreshToken, tokenContext(sessionId, 'refresh')) } : {}),
  };
}

const tokenOfSession = (db: Db) => prepared(db, 'delegated_token_of_session', (d, name) => d.select().from(delegatedTokens)
  .where(eq(delegatedTokens.sessionId, sql.placeholder('sessionId'))).prepare(name));

async function readRow(ctx: Context, sessionId: number): Promise<Row | undefined> {
  const [row] = await tokenOfSession(ctx.db).execute({ sessionId });
  return row;
}

/** Without an expiry of its own, the provider's token is taken to live as long as the session. */
const expiresAt = (row: Row, customer: Customer) => row.accessTokenExpiresAt ?? customer.session.expiresAt;

/**
 * `delegated_token` of GET /me: null unless the realm shows delegation information and the session
 * (or the session behind the OAuth token) came from a delegated sign-in with a usable token: an
 * expired one that cannot be refreshed is null too.
 */
export async function delegatedTokenOf(ctx: Context, customer: Customer): Promise<DelegatedTokenBody | null> {
  if (!customer.realm.showDelegationInformation) return null;
  let row = await readRow(ctx, customer.session.id);
  if (!row) return null;
  if (row.sealedRefreshToken && expiresAt(row, customer).getTime() - REFRESH_AHEAD_MS <= ctx.clock.now().getTime()) {
    row = await refreshOnce(ctx, customer);
    if (!row) return null;
  }
  const expiry = expiresAt(row, customer);
  const now = ctx.clock.now();
  if (expiry <= now) return null;
  return {
    uuid: row.uuid,
    access_token: unseal(secretsKey(ctx.config), row.sealedAccessToken, tokenContext(row.sessionId, 'access')),
    access_token_expires_in: Math.floor((expiry.getTime() - now.getTime()) / 1000),
    access_token_expires_in_datetime: expiry.toISOString(),
  };
}

const inFlight = new WeakMap<Context, Map<number, Promise<Row | undefined>>>();

/** One refresh per session in this process: concurrent readers share it. */
function refreshOnce(ctx: Context, customer: Customer): Promise<Row | undefined> {
  let running = inFlight.get(ctx);
  if (!running) inFlight.set(ctx, running = new Map());
  const sessionId = customer.session.id;
  let refresh = running.get(sessionId);
  if (!refresh) {
    refresh = refreshStored(ctx, customer).finally(() => running.delete(sessionId));
    running.set(sessionId, refresh);
  }
  return refresh;
}

const POLL_MS = 50;
const POLLS = 100;

/**
 * Another process holds the lease: its answer is awaited (a few seconds at most), so that readers
 * at expiry all get the new token rather than the expired one.
 */
async function refreshedElsewhere(ctx: Context, sessionId: number): Promise<Row | undefined> {
  for (let poll = 0; ; poll++) {
    const row = await readRow(ctx, sessionId);
    const leased = row?.refreshClaimedUntil && row.refreshClaimedUntil > ctx.clock.now();
    if (!leased || poll >= POLLS) return row;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function refreshStored(ctx: Context, customer: Customer): Promise<Row | undefined> {
  const now = ctx.clock.now();
  const sessionId = customer.session.id;
  // The lease: of several processes, the one whose update finds the row unclaimed and still expiring refreshes.
  const [claimed] = await ctx.db.update(delegatedTokens).set({ refreshClaimedUntil: new Date(now.getTime() + LEASE_MS) })
    .where(and(
      eq(delegatedTokens.sessionId, sessionId), isNotNull(delegatedTokens.sealedRefreshToken),
      or(isNull(delegatedTokens.refreshClaimedUntil), lte(delegatedTokens.refreshClaimedUntil, now)),
      or(isNull(delegatedTokens.accessTokenExpiresAt), lte(delegatedTokens.accessTokenExpiresAt, new Date(now.getTime() + REFRESH_AHEAD_MS))),
    )).returning();
  if (!claimed) return refreshedElsewhere(ctx, sessionId);
  const provider = await findIdentityProvider(ctx, customer.realm.id);
  if (!provider || provider.issuer !== claimed.issuer) return claimed;
  const refreshToken = unseal(secretsKey(ctx.config), claimed.sealedRefreshToken!, tokenContext(sessionId, 'refresh'));
  const client = await openidClient();
  try {
    const { config, done } = await configurationOf(ctx, provider);
    const tokens = await client.refreshTokenGrant(config, refreshToken);
    done();
    const refreshedAt = ctx.clock.now();
    const [row] = await ctx.db.update(delegatedTokens).set({
      ...tokenColumns(ctx, sessionId, { accessToken: tokens.access_token, expiresIn: tokens.expires_in, refreshToken: tokens.refresh_token }, refreshedAt),
      refreshClaimedUntil: null, updatedAt: refreshedAt,
    }).where(eq(delegatedTokens.sessionId, sessionId)).returning();
    return row;
  } catch (err) {
    ctx.log.warn({ realm: customer.realm.uid, session: sessionId, reason: reasonOf(err) }, 'refreshing a delegated access token failed');
    if (err instanceof client.ResponseBodyError && err.error === 'invalid_grant') {
      // The provider no longer honours the refresh token: the delegation ends with the access token.
      const [row] = await ctx.db.update(delegatedTokens).set({ sealedRefreshToken: null, refreshClaimedUntil: null, updatedAt: ctx.clock.now() })
        .where(eq(delegatedTokens.sessionId, sessionId)).returning();
      return row;
    }
    // Anything else (the provider unreachable) is tried again once the lease ends.
    return claimed;
  }
}
