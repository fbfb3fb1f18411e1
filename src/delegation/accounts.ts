import { and, eq, lt, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { recordEvent } from '../events/events.js';
import { AppError, type FieldError } from '../errors/index.js';
import { fieldsOf, type CustomField } from '../realms/custom-fields.js';
import { checkFieldValue, type FieldValue } from '../realms/field-values.js';
import type { Realm } from '../realms/realms.js';
import { newSession, type SessionOrigin, type StartedSession } from '../realms/sessions.js';
import { realmSessions, realmUsers } from '../tables/realms.js';
import { writeRealmUser, type RealmUser, type RealmUserInput } from '../realms/users.js';
import { hashSecret } from '../security/secrets.js';
import type { Claims, Flow, ProviderTokens } from './flow.js';
import type { IdentityProvider } from './provider.js';
import { delegatedTokens, realmUserIdentities, usedDelegationStates } from '../tables/delegation.js';
import { tokenColumns } from './tokens.js';

/**
 * Who a verified provider account is in the realm: the user linked to its `sub`, else the user with
 * its verified email (then linked) when that user's address is proven too (DESIGN.md "Verified
 * addresses": whoever signed up with an address they never proved must not receive its owner), else a new user when the realm's activation mode lets visitors
 * sign up. Everything is written in one transaction with the flow's single use, or nothing is.
 */

export type DelegatedOutcome =
  | { kind: 'signed_in'; user: RealmUser; session: StartedSession }
  /** A moderated realm: the user was created inactive. */
  | { kind: 'pending'; user: RealmUser }
  | { kind: 'refused'; status: number; reason: Refusal['reason']; details?: FieldError[] };

class Refusal extends Error {
  constructor(
    readonly reason: 'replayed' | 'inactive' | 'sign_up_closed' | 'no_verified_email' | 'linked_elsewhere' | 'unverified_account' | 'invalid',
    readonly status: number,
    readonly details?: FieldError[],
  ) {
    super(reason);
  }
}

const USERNAME = /^[A-Za-z0-9._-]{1,100}$/;
const MAX_TEXT = 255;

/** The email the provider vouches for: only with `email_verified: true`. */
function verifiedEmail(claims: Claims): string | null {
  return claims.email_verified === true && typeof claims.email === 'string' && claims.email.trim() ? claims.email.trim().toLowerCase() : null;
}

function claimOf(claims: Claims, name: string | undefined): FieldValue | undefined {
  if (!name || !Object.hasOwn(claims, name)) return undefined;
  const value = claims[name];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
}

/** A new user's attributes from the claims, per the provider's mapping; values that would not fit are left out. */
function mappedInput(fields: CustomField[], provider: IdentityProvider, claims: Claims, email: string): RealmUserInput {
  const mapping = provider.claimMapping;
  const input: RealmUserInput = { email };
  for (const target of ['first_name', 'last_name', 'second_last_name'] as const) {
    const value = claimOf(claims, mapping[target]);
    if (value !== undefined && value !== null) input[target] = String(value).trim().slice(0, MAX_TEXT);
  }
  const username = claimOf(claims, mapping.username);
  if (typeof username === 'string' && USERNAME.test(username.trim())) input.username = username.trim();
  const wanted = mapping.custom_fields ?? {};
  input.custom_fields = fields.flatMap((field) => {
    const value = Object.hasOwn(wanted, field.key) ? claimOf(claims, wanted[field.key]) : undefined;
    return value !== undefined && checkFieldValue(field, value).ok ? [{ key: field.key, value }] : [];
  });
  return input;
}

/** A taken username is not the visitor's fault: the account is made without one. The provider vouched for the address. */
async function createUser(ctx: Context, realm: Realm, input: RealmUserInput, fields: CustomField[]): Promise<RealmUser> {
  try {
    return await writeRealmUser(ctx, realm, null, input, { fields, emailVerified: true });
  } catch (err) {
    if (!(err instanceof AppError) || err.kind !== 'invalid') throw err;
    if (input.username && err.details?.some((d) => d.field === 'username')) return createUser(ctx, realm, { ...input, username: undefined }, fields);
    throw new Refusal('invalid', 422, err.details);
  }
}

async function linkedUser(tx: Db, realm: Realm, provider: IdentityProvider, subject: string): Promise<RealmUser | undefined> {
  const [row] = await tx.select({ user: realmUsers }).from(realmUserIdentities)
    .innerJoin(realmUsers, eq(realmUsers.id, realmUserIdentities.userId))
    .where(and(eq(realmUserIdentities.realmId, realm.id), eq(realmUserIdentities.issuer, provider.issuer), eq(realmUserIdentities.subject, subject)));
  return row?.user;
}

async function link(tx: Db, realm: Realm, provider: IdentityProvider, user: RealmUser, subject: string, now: Date): Promise<void> {
  const [other] = await tx.select({ id: realmUserIdentities.id }).from(realmUserIdentities)
    .where(and(eq(realmUserIdentities.userId, user.id), eq(realmUserIdentities.issuer, provider.issuer)));
  if (other) throw new Refusal('linked_elsewhere', 409);
  await tx.insert(realmUserIdentities).values({ realmId: realm.id, userId: user.id, issuer: provider.issuer, subject, createdAt: now });
}

/** The user of a verified provider account, found, linked or created (see the module's comment). */
async function accountOf(
  ctx: Context, tx: Db, realm: Realm, provider: IdentityProvider, claims: Claims, fields: CustomField[], now: Date,
): Promise<{ user: RealmUser; created: boolean }> {
  const linked = await linkedUser(tx, realm, provider, claims.sub);
  if (linked) return { user: linked, created: false };
  const email = verifiedEmail(claims);
  if (email) {
    const [known] = await tx.select().from(realmUsers).where(and(eq(realmUsers.realmId, realm.id), sql`lower(${realmUsers.email}) = ${email}`));
    if (known) {
      if (!known.active) throw new Refusal('inactive', 403);
      if (known.emailVerifiedAt === null) throw new Refusal('unverified_account', 409);
      await link(tx, realm, provider, known, claims.sub, now);
      return { user: known, created: false };
    }
  }
  const mode = realm.activationMode;
  if (mode === 'invitation_only' || mode === 'disabled') throw new Refusal('sign_up_closed', 403);
  if (!email) throw new Refusal('no_verified_email', 403);
  // direct, otp and activation_email: the provider has confirmed the address. moderated: an admin activates the user.
  const user = await createUser({ ...ctx, db: tx }, realm, { ...mappedInput(fields, provider, claims, email), active: mode !== 'moderated' }, fields);
  await link(tx, realm, provider, user, claims.sub, now);
  await recordEvent({ ...ctx, db: tx }, {
    realmId: realm.id, userId: user.id, type: 'user_signup_log', properties: { activation_mode: mode, identity_provider: provider.issuer },
  });
  return { user, created: true };
}

/**
 * Ends a delegated sign-in whose answer openid-client has verified: takes the flow (a second callback
 * with the same state is refused), finds or makes the user, and starts a fresh realm session keeping
 * the provider's tokens, recording `user_login_log`. A refusal writes nothing.
 */
export async function signInDelegated(
  ctx: Context, realm: Realm, provider: IdentityProvider, flow: Flow, claims: Claims, tokens: ProviderTokens, origin: SessionOrigin = {},
): Promise<DelegatedOutcome> {
  const now = ctx.clock.now();
  // Read before the transaction: on the embedded database a query outside it would wait for its end.
  const fields = await fieldsOf(ctx, realm.id);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [taken] = await tx.insert(usedDelegationStates).values({ stateHash: hashSecret(flow.state), expiresAt: new Date(flow.expiresAt) })
        .onConflictDoNothing().returning({ stateHash: usedDelegationStates.stateHash });
      if (!taken) throw new Refusal('replayed', 409);
      await tx.delete(usedDelegationStates).where(lt(usedDelegationStates.expiresAt, now));
      const { user, created } = await accountOf(ctx, tx, realm, provider, claims, fields, now);
      if (!user.active) {
        if (created) return { kind: 'pending', user } as const;
        throw new Refusal('inactive', 403);
      }
      const { secret, row } = newSession(ctx, realm, user.id, origin);
      const [session] = await tx.insert(realmSessions).values(row).returning({ id: realmSessions.id });
      await tx.insert(delegatedTokens).values({
        sessionId: session.id, realmId: realm.id, issuer: provider.issuer, ...tokenColumns(ctx, session.id, tokens, now), createdAt: now, updatedAt: now,
      });
      await recordEvent({ ...ctx, db: tx }, { realmId: realm.id, userId: user.id, type: 'user_login_log', properties: { identity_provider: provider.issuer } });
      return { kind: 'signed_in', user, session: { id: session.id, secret, expiresAt: row.expiresAt } } as const;
    });
  } catch (err) {
    if (err instanceof Refusal) return { kind: 'refused', status: err.status, reason: err.reason, details: err.details };
    throw err;
  }
}
