import { eq } from 'drizzle-orm';
import type { ActingContext } from './principal.js';
import { forbidden, invalidField, twoFactorState } from '../errors/index.js';
import { seal } from '../security/sealed.js';
import { secretsKey } from '../security/secrets-key.js';
import { findAdmin } from './team.js';
import { passkeyCount, relyingParty } from './passkeys.js';
import {
  acceptTotp, hasSecondFactor, hasTotp, issueRecoveryCodes, recoveryCodesLeft, secondFactorPolicy, totpSealedFor,
} from './second-factors.js';
import { adminPasskeyRegistrations, adminPasskeys, adminRecoveryCodes, adminSessions, adminSignInChallenges, adminTotp } from '../tables/admin-auth.js';

export interface TwoFactorStatus {
  totp: boolean;
  passkeys: number;
  /** Passkeys can be added here: the base address's host is a name, not an IP address. */
  passkeys_available: boolean;
  recovery_codes_left: number;
  required: boolean;
}

/** The signed-in member's second factor, and whether the account requires one. */
export async function twoFactorStatus(ctx: ActingContext): Promise<TwoFactorStatus> {
  const adminId = ctx.actor.adminId;
  return {
    totp: await hasTotp(ctx, adminId), passkeys: await passkeyCount(ctx, adminId), passkeys_available: relyingParty(ctx) !== null,
    recovery_codes_left: await recoveryCodesLeft(ctx, adminId), required: (await secondFactorPolicy(ctx)).required,
  };
}

/**
 * Starts enrolling an authenticator app: a new secret (sealed at rest), its otpauth:// address and that
 * address as a QR code (an SVG data URL). It counts only once a code from the app is confirmed;
 * starting again replaces an unconfirmed secret.
 */
export async function startTotp(ctx: ActingContext): Promise<{ secret: string; otpauth_uri: string; qr_code: string }> {
  const adminId = ctx.actor.adminId;
  if (await hasTotp(ctx, adminId)) throw twoFactorState('An authenticator app is already set up: remove it first');
  const member = await findAdmin(ctx, adminId);
  const { accountName } = await secondFactorPolicy(ctx);
  // Loaded when a member enrols: few servers ever draw a QR code.
  const [{ generateSecret, generateURI }, { default: QRCode }] = await Promise.all([import('otplib'), import('qrcode')]);
  const secret = generateSecret();
  const sealedSecret = seal(secretsKey(ctx.config), secret, totpSealedFor(adminId));
  const now = ctx.clock.now();
  await ctx.db.insert(adminTotp).values({ adminId, sealedSecret, createdAt: now })
    .onConflictDoUpdate({ target: adminTotp.adminId, set: { sealedSecret, lastStep: null, createdAt: now } });
  const uri = generateURI({ issuer: accountName, label: member.email, secret });
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return { secret, otpauth_uri: uri, qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * Confirms the app being enrolled with a code from it, and answers the ten recovery codes (shown this
 * once). A session that could only enrol (the account requires a second factor) becomes a full one.
 */
export async function confirmTotp(ctx: ActingContext, code: string): Promise<{ recovery_codes: string[] }> {
  const adminId = ctx.actor.adminId;
  if (await hasTotp(ctx, adminId)) throw twoFactorState('An authenticator app is already set up: remove it first');
  if (!await acceptTotp(ctx, adminId, code, false)) throw invalidField('code', 'is not the current code of the authenticator app');
  const now = ctx.clock.now();
  await ctx.db.update(adminTotp).set({ confirmedAt: now }).where(eq(adminTotp.adminId, adminId));
  if (ctx.actor.sessionId !== null) {
    await ctx.db.update(adminSessions).set({ enrolmentOnly: false }).where(eq(adminSessions.id, ctx.actor.sessionId));
  }
  return { recovery_codes: await issueRecoveryCodes(ctx.db, adminId, now) };
}

/** Ten new recovery codes in place of the member's earlier ones (used or not). */
export async function regenerateRecoveryCodes(ctx: ActingContext): Promise<{ recovery_codes: string[] }> {
  const adminId = ctx.actor.adminId;
  if (!await hasSecondFactor(ctx, adminId)) throw twoFactorState('Set up an authenticator app or a passkey first: recovery codes go with them');
  return { recovery_codes: await issueRecoveryCodes(ctx.db, adminId, ctx.clock.now()) };
}

/**
 * Removes the member's own authenticator app; refused while the account requires a second factor and the member has no
 * passkey (an owner can still reset it). Without a passkey left, the recovery codes go too.
 */
export async function removeTotp(ctx: ActingContext): Promise<void> {
  const adminId = ctx.actor.adminId;
  const { required } = await secondFactorPolicy(ctx);
  const passkeys = await passkeyCount(ctx, adminId);
  if (required && passkeys === 0) throw twoFactorState('The account requires a second factor: it cannot be removed');
  if (passkeys > 0) await ctx.db.delete(adminTotp).where(eq(adminTotp.adminId, adminId));
  else await forgetSecondFactor(ctx, adminId);
}

/**
 * An owner resets the second factor of a member who lost it: the member signs in with the password alone
 * (and, when the account requires one, must enrol again before anything else).
 */
export async function resetSecondFactor(ctx: ActingContext, memberId: number): Promise<void> {
  if (!ctx.actor.isOwner) throw forbidden('Only an owner can reset a member\'s second factor');
  await findAdmin(ctx, memberId);
  await forgetSecondFactor(ctx, memberId);
}

async function forgetSecondFactor(ctx: ActingContext, adminId: number): Promise<void> {
  await ctx.db.delete(adminTotp).where(eq(adminTotp.adminId, adminId));
  await ctx.db.delete(adminPasskeys).where(eq(adminPasskeys.adminId, adminId));
  await ctx.db.delete(adminPasskeyRegistrations).where(eq(adminPasskeyRegistrations.adminId, adminId));
  await ctx.db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
  await ctx.db.delete(adminSignInChallenges).where(eq(adminSignInChallenges.adminId, adminId));
}
