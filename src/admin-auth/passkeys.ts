import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { and, count, eq, gt } from 'drizzle-orm';
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Context } from '../context.js';
import type { Page } from '../db/paging.js';
import { FieldErrors, invalidField, notFound, twoFactorState } from '../errors/index.js';
import { hashSecret, randomSecret, safeEqual } from '../security/secrets.js';
import type { ActingContext } from './principal.js';
import { hasSecondFactor, hasTotp, issueRecoveryCodes, secondFactorPolicy } from './second-factors.js';
import { findAdmin } from './team.js';
import { adminPasskeyRegistrations, adminPasskeys, adminRecoveryCodes, adminSessions, admins } from '../tables/admin-auth.js';

/** How long a passkey being added, or a sign-in's passkey request, waits for the authenticator. */
export const PASSKEY_CHALLENGE_MINUTES = 5;
const TIMEOUT_MS = PASSKEY_CHALLENGE_MINUTES * 60_000;
export const MAX_PASSKEY_NAME = 100;

/**
 * The relying party of passkeys is the base address's host (`BASE_URL`), and a relying-party id must be a
 * domain name: with an IP literal (http://127.0.0.1:3000), browsers refuse every passkey, so none is offered.
 */
export function relyingParty(ctx: Pick<Context, 'config'>): { id: string; origin: string } | null {
  const url = new URL(ctx.config.baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host || isIP(host) !== 0) return null;
  return { id: host, origin: url.origin };
}

export const PASSKEYS_NEED_A_NAME = 'Passkeys need the console to be served on a host name (such as localhost), not an IP address: set BASE_URL to one';

function requireRelyingParty(ctx: Pick<Context, 'config'>) {
  const rp = relyingParty(ctx);
  if (!rp) throw twoFactorState(PASSKEYS_NEED_A_NAME);
  return rp;
}

export interface PasskeyBody {
  id: number;
  name: string;
  transports: string[];
  created_at: string;
  last_used_at: string | null;
}

const bodyOf = (row: typeof adminPasskeys.$inferSelect): PasskeyBody => ({
  id: row.id, name: row.name, transports: row.transports, created_at: row.createdAt.toISOString(), last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

export async function passkeyCount(ctx: Pick<Context, 'db'>, adminId: number): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(adminPasskeys).where(eq(adminPasskeys.adminId, adminId));
  return row.n;
}

/** The signed-in member's passkeys, oldest first. */
export async function listPasskeys(ctx: ActingContext, page: Page): Promise<{ passkeys: PasskeyBody[]; total: number }> {
  const adminId = ctx.actor.adminId;
  const rows = await ctx.db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, adminId))
    .orderBy(adminPasskeys.id).limit(page.perPage).offset(page.offset);
  return { passkeys: rows.map(bodyOf), total: await passkeyCount(ctx, adminId) };
}

/**
 * Starts adding a passkey: the options for `navigator.credentials.create` (simplewebauthn's JSON form), with a new
 * random challenge that only this member can use, once, within five minutes (only its hash kept; starting again replaces it).
 */
export async function passkeyRegistrationOptions(ctx: ActingContext): Promise<Record<string, unknown>> {
  const rp = requireRelyingParty(ctx);
  const adminId = ctx.actor.adminId;
  const member = await findAdmin(ctx, adminId);
  const [{ uuid }] = await ctx.db.select({ uuid: admins.uuid }).from(admins).where(eq(admins.id, adminId));
  const existing = await ctx.db.select({ credentialId: adminPasskeys.credentialId, transports: adminPasskeys.transports }).from(adminPasskeys)
    .where(eq(adminPasskeys.adminId, adminId));
  const { accountName } = await secondFactorPolicy(ctx);
  const challenge = randomSecret();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + TIMEOUT_MS);
  await ctx.db.insert(adminPasskeyRegistrations).values({ adminId, challengeHash: hashSecret(challenge), expiresAt, createdAt: now })
    .onConflictDoUpdate({ target: adminPasskeyRegistrations.adminId, set: { challengeHash: hashSecret(challenge), expiresAt, createdAt: now } });
  const { generateRegistrationOptions } = await import('@simplewebauthn/server');
  const options = await generateRegistrationOptions({
    rpName: accountName, rpID: rp.id, userName: member.email, userDisplayName: [member.firstName, member.lastName].filter(Boolean).join(' ') || member.email,
    userID: new TextEncoder().encode(uuid), challenge: new Uint8Array(Buffer.from(challenge, 'base64url')), timeout: TIMEOUT_MS, attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  return options as unknown as Record<string, unknown>;
}

/** The challenge a browser signed, read from its client data (verified afterwards); null when unreadable. */
function signedChallenge(response: { response?: { clientDataJSON?: unknown } }): string | null {
  try {
    const raw = response.response?.clientDataJSON;
    if (typeof raw !== 'string') return null;
    const challenge = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))?.challenge;
    return typeof challenge === 'string' ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Adds the passkey the browser made with the options of `passkeyRegistrationOptions` (attestation 'none'), under a name
 * the member chose. Its challenge is used up. When it is the member's first second factor, ten recovery codes come with it
 * (shown this once), and a session that could only enrol becomes a full one.
 */
export async function addPasskey(ctx: ActingContext, name: string | undefined, response: RegistrationResponseJSON): Promise<{ passkey: PasskeyBody; recovery_codes?: string[] }> {
  const rp = requireRelyingParty(ctx);
  const adminId = ctx.actor.adminId;
  const errors = new FieldErrors();
  const label = name?.trim() ?? '';
  if (!label) errors.add('name', "can't be blank");
  else if (label.length > MAX_PASSKEY_NAME) errors.add('name', `is too long (at most ${MAX_PASSKEY_NAME} characters)`);
  errors.throwIfAny();
  const now = ctx.clock.now();
  const [pending] = await ctx.db.select().from(adminPasskeyRegistrations)
    .where(and(eq(adminPasskeyRegistrations.adminId, adminId), gt(adminPasskeyRegistrations.expiresAt, now)));
  const challenge = signedChallenge(response);
  if (!pending || challenge === null) throw invalidField('response', 'is not an answer to a current passkey request: start again');
  const { verifyRegistrationResponse } = await import('@simplewebauthn/server');
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response, expectedChallenge: (given) => safeEqual(hashSecret(given), pending.challengeHash),
      expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false,
    });
  } catch {
    throw invalidField('response', 'could not be verified as a passkey of this site');
  }
  if (!verified.verified) throw invalidField('response', 'could not be verified as a passkey of this site');
  const { credential } = verified.registrationInfo;
  // The challenge works once: of two uses at once, one deletes it.
  const used = await ctx.db.delete(adminPasskeyRegistrations)
    .where(and(eq(adminPasskeyRegistrations.adminId, adminId), eq(adminPasskeyRegistrations.challengeHash, pending.challengeHash)))
    .returning({ adminId: adminPasskeyRegistrations.adminId });
  if (!used.length) throw invalidField('response', 'is not an answer to a current passkey request: start again');
  const hadSecondFactor = await hasSecondFactor(ctx, adminId);
  // A credential id is one passkey's: the unique index settles two additions of it at once.
  const [row] = await ctx.db.insert(adminPasskeys).values({
    adminId, credentialId: credential.id, publicKey: Buffer.from(credential.publicKey).toString('base64url'), counter: credential.counter,
    transports: (credential.transports ?? response.response.transports ?? []).map(String).slice(0, 10), name: label, createdAt: now,
  }).onConflictDoNothing({ target: adminPasskeys.credentialId }).returning();
  if (!row) throw invalidField('response', 'is a passkey already added');
  if (ctx.actor.sessionId !== null) {
    await ctx.db.update(adminSessions).set({ enrolmentOnly: false }).where(eq(adminSessions.id, ctx.actor.sessionId));
  }
  return { passkey: bodyOf(row), ...(hadSecondFactor ? {} : { recovery_codes: await issueRecoveryCodes(ctx.db, adminId, now) }) };
}

/**
 * Removes one of the member's passkeys; refused (409) when it is the last second factor while the account requires
 * one. Removing the last second factor removes the recovery codes too.
 */
export async function removePasskey(ctx: ActingContext, id: number): Promise<void> {
  const adminId = ctx.actor.adminId;
  await ctx.db.transaction(async (tx) => {
    // Two removals at once of a member's last two passkeys: the member's row, locked, puts them one after the other.
    await tx.select({ id: admins.id }).from(admins).where(eq(admins.id, adminId)).for('update');
    const scoped = { db: tx };
    const [row] = await tx.select({ id: adminPasskeys.id }).from(adminPasskeys).where(and(eq(adminPasskeys.id, id), eq(adminPasskeys.adminId, adminId)));
    if (!row) throw notFound('Passkey');
    const others = await passkeyCount(scoped, adminId) - 1 + (await hasTotp(scoped, adminId) ? 1 : 0);
    if (others === 0 && (await secondFactorPolicy(scoped)).required) throw twoFactorState('The account requires a second factor: the last one cannot be removed');
    await tx.delete(adminPasskeys).where(and(eq(adminPasskeys.id, id), eq(adminPasskeys.adminId, adminId)));
    if (!await hasSecondFactor(scoped, adminId)) await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
  });
}

/** The WebAuthn challenge of a sign-in, derived one way from its challenge: it lives and ends with it, and needs no row. */
function signInWebauthnChallenge(challenge: string): string {
  return createHash('sha256').update(`admin-sign-in-passkey:${challenge}`).digest('base64url');
}

/** The options for `navigator.credentials.get` of a sign-in's second step, or null when the member has no usable passkey. */
export async function passkeySignInOptions(ctx: Context, adminId: number, challenge: string): Promise<Record<string, unknown> | null> {
  const rp = relyingParty(ctx);
  if (!rp) return null;
  const rows = await ctx.db.select({ credentialId: adminPasskeys.credentialId, transports: adminPasskeys.transports }).from(adminPasskeys)
    .where(eq(adminPasskeys.adminId, adminId));
  if (!rows.length) return null;
  const { generateAuthenticationOptions } = await import('@simplewebauthn/server');
  const options = await generateAuthenticationOptions({
    rpID: rp.id, timeout: TIMEOUT_MS, userVerification: 'preferred',
    challenge: new Uint8Array(Buffer.from(signInWebauthnChallenge(challenge), 'base64url')),
    allowCredentials: rows.map((row) => ({ id: row.credentialId, transports: row.transports as AuthenticatorTransport[] })),
  });
  return options as unknown as Record<string, unknown>;
}

/**
 * Checks a passkey's answer to the sign-in's challenge: a passkey of this member, signed over this challenge, for this
 * site, with a signature counter that moved forward (or stays 0 on authenticators that keep none). The counter moves in
 * one conditional statement, so the same answer sent twice at once is taken once.
 */
export async function acceptPasskey(ctx: Context, adminId: number, challenge: string, answer: object): Promise<boolean> {
  const response = answer as AuthenticationResponseJSON;
  const rp = relyingParty(ctx);
  if (!rp || typeof response?.id !== 'string') return false;
  const [row] = await ctx.db.select().from(adminPasskeys).where(and(eq(adminPasskeys.credentialId, response.id), eq(adminPasskeys.adminId, adminId)));
  if (!row) return false;
  const expected = signInWebauthnChallenge(challenge);
  const { verifyAuthenticationResponse } = await import('@simplewebauthn/server');
  let newCounter: number;
  try {
    const result = await verifyAuthenticationResponse({
      response, expectedChallenge: (given) => safeEqual(given, expected), expectedOrigin: rp.origin, expectedRPID: rp.id,
      credential: { id: row.credentialId, publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')), counter: row.counter, transports: row.transports as AuthenticatorTransport[] },
      requireUserVerification: false,
    });
    if (!result.verified) return false;
    newCounter = result.authenticationInfo.newCounter;
  } catch {
    return false;
  }
  const taken = await ctx.db.update(adminPasskeys).set({ counter: newCounter, lastUsedAt: ctx.clock.now() })
    .where(and(eq(adminPasskeys.id, row.id), eq(adminPasskeys.counter, row.counter)))
    .returning({ id: adminPasskeys.id });
  return taken.length === 1;
}
