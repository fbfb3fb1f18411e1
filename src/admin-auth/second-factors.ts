import { randomBytes } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { unseal } from '../security/sealed.js';
import { secretsKey } from '../security/secrets-key.js';
import { hashSecret } from '../security/secrets.js';
import { accounts } from '../tables/account.js';
import { adminPasskeys, adminRecoveryCodes, adminTotp } from '../tables/admin-auth.js';

export const RECOVERY_CODE_COUNT = 10;
/** A code of the step before or after the server's is taken too: phones' clocks drift. */
const TOTP_DRIFT_SECONDS = 30;
const TOTP_PERIOD_SECONDS = 30;

/** The sealed TOTP secret opens only on its member's row. */
export const totpSealedFor = (adminId: number) => `admin-totp:${adminId}`;

/** The member has an authenticator app whose first code was entered. */
export async function hasTotp(ctx: Pick<Context, 'db'>, adminId: number): Promise<boolean> {
  const [row] = await ctx.db.select({ adminId: adminTotp.adminId }).from(adminTotp)
    .where(and(eq(adminTotp.adminId, adminId), isNotNull(adminTotp.confirmedAt)));
  return !!row;
}

/** The member has a second factor: an authenticator app whose first code was entered, or a passkey. */
export async function hasSecondFactor(ctx: Pick<Context, 'db'>, adminId: number): Promise<boolean> {
  if (await hasTotp(ctx, adminId)) return true;
  const [row] = await ctx.db.select({ id: adminPasskeys.id }).from(adminPasskeys).where(eq(adminPasskeys.adminId, adminId)).limit(1);
  return !!row;
}

/** The account's setting: every member needs a second factor (read here, below the account feature). */
export async function secondFactorPolicy(ctx: Pick<Context, 'db'>): Promise<{ required: boolean; accountName: string }> {
  const [account] = await ctx.db.select({ required: accounts.secondFactorRequired, name: accounts.name }).from(accounts).orderBy(accounts.id).limit(1);
  return { required: account?.required ?? false, accountName: account?.name ?? 'Atrium' };
}

/**
 * Checks a code of the member's authenticator app at the injected clock's time (`confirmed`: the app
 * enrolled, or the one being enrolled). A code is taken once: the last step taken moves forward in one
 * statement, so a replayed code, or the same code sent twice at once, finds it taken.
 */
export async function acceptTotp(ctx: Context, adminId: number, code: string, confirmed = true): Promise<boolean> {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return false;
  const [row] = await ctx.db.select().from(adminTotp).where(eq(adminTotp.adminId, adminId));
  if (!row || (row.confirmedAt !== null) !== confirmed) return false;
  const secret = unseal(secretsKey(ctx.config), row.sealedSecret, totpSealedFor(adminId));
  const epoch = Math.floor(ctx.clock.now().getTime() / 1000);
  const { verify } = await import('otplib');
  const result = await verify({ secret, token, epoch, epochTolerance: TOTP_DRIFT_SECONDS });
  if (!result.valid) return false;
  const step = Math.floor(epoch / TOTP_PERIOD_SECONDS) + result.delta;
  const taken = await ctx.db.update(adminTotp).set({ lastStep: step })
    .where(and(eq(adminTotp.adminId, adminId), or(isNull(adminTotp.lastStep), lt(adminTotp.lastStep, step))))
    .returning({ adminId: adminTotp.adminId });
  return taken.length === 1;
}

/** 128 random bits as 32 hexadecimal digits in four groups: typed by hand, so in one case and without look-alikes. */
const newRecoveryCode = () => randomBytes(16).toString('hex').match(/.{8}/g)!.join('-');
const normalizedCode = (code: string) => code.toLowerCase().replace(/[^0-9a-f]/g, '');

/** Replaces the member's recovery codes with ten new ones, answered once; only their hashes are kept. */
export async function issueRecoveryCodes(db: Db, adminId: number, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
  await db.insert(adminRecoveryCodes).values(codes.map((code) => ({ adminId, codeHash: hashSecret(normalizedCode(code)), createdAt: now })));
  return codes;
}

/** Spends one of the member's recovery codes: marked used in one statement, so it works once even when sent twice at once. */
export async function useRecoveryCode(ctx: Context, adminId: number, code: string): Promise<boolean> {
  const normalized = normalizedCode(code);
  if (normalized.length !== 32) return false;
  const used = await ctx.db.update(adminRecoveryCodes).set({ usedAt: ctx.clock.now() })
    .where(and(eq(adminRecoveryCodes.adminId, adminId), eq(adminRecoveryCodes.codeHash, hashSecret(normalized)), isNull(adminRecoveryCodes.usedAt)))
    .returning({ id: adminRecoveryCodes.id });
  return used.length === 1;
}

export async function recoveryCodesLeft(ctx: Pick<Context, 'db'>, adminId: number): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(adminRecoveryCodes)
    .where(and(eq(adminRecoveryCodes.adminId, adminId), isNull(adminRecoveryCodes.usedAt)));
  return row.n;
}
