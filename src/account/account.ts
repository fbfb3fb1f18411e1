import { eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { AccountInput, AccountModel } from './schema.js';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { FieldErrors } from '../errors/index.js';
import { accounts } from '../tables/account.js';

export const DEFAULT_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_ALLOWED_EXTENSIONS = [
  'jpg', 'jpeg', 'png', 'gif', 'webp', 'svg', 'pdf',
  'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp',
  'txt', 'csv', 'rtf',
];

export type Account = typeof accounts.$inferSelect;

export type AccountBody = Static<typeof AccountModel>;

export function accountBody(account: Account): AccountBody {
  return {
    name: account.name,
    upload_max_bytes: account.uploadMaxBytes,
    allowed_extensions: account.allowedExtensions,
    second_factor_required: account.secondFactorRequired,
    created_at: account.createdAt.toISOString(),
    updated_at: account.updatedAt.toISOString(),
  };
}

/** The installation's one account, made on first use. */
export async function ensureAccount(ctx: Context, name = 'Atrium'): Promise<{ account: Account; created: boolean }> {
  const [existing] = await ctx.db.select().from(accounts).orderBy(accounts.id).limit(1);
  if (existing) return { account: existing, created: false };
  const now = ctx.clock.now();
  const [account] = await ctx.db.insert(accounts).values({
    name,
    uploadMaxBytes: DEFAULT_UPLOAD_MAX_BYTES,
    allowedExtensions: DEFAULT_ALLOWED_EXTENSIONS,
    createdAt: now,
    updatedAt: now,
  }).returning();
  return { account, created: true };
}

/** The installation's account, as the operations that read its settings (upload limits) need it, without a permission. */
export async function installationAccount(ctx: Context): Promise<Account> {
  return (await ensureAccount(ctx)).account;
}

/** GET /account: the account's settings. */
export async function getAccount(ctx: ActingContext): Promise<Account> {
  ctx.actor.assertHolds('account.read');
  return installationAccount(ctx);
}

export type AccountChanges = Static<typeof AccountInput>;

export async function updateAccount(ctx: ActingContext, changes: AccountChanges): Promise<Account> {
  ctx.actor.assertHolds('account.manage');
  const errors = new FieldErrors();
  if (changes.name !== undefined && !changes.name.trim()) errors.add('name', "can't be blank");
  if (changes.upload_max_bytes !== undefined && changes.upload_max_bytes < 1) errors.add('upload_max_bytes', 'must be greater than 0');
  const extensions = changes.allowed_extensions?.map((e) => e.trim().toLowerCase().replace(/^\./, ''));
  if (extensions?.some((e) => !/^[a-z0-9]{1,16}$/.test(e))) errors.add('allowed_extensions', 'must be file extensions such as "pdf"');
  errors.throwIfAny();
  const account = await installationAccount(ctx);
  const [updated] = await ctx.db.update(accounts).set({
    name: changes.name?.trim() ?? account.name,
    uploadMaxBytes: changes.upload_max_bytes ?? account.uploadMaxBytes,
    allowedExtensions: extensions ? [...new Set(extensions)] : account.allowedExtensions,
    secondFactorRequired: changes.second_factor_required ?? account.secondFactorRequired,
    updatedAt: ctx.clock.now(),
  }).where(eq(accounts.id, account.id)).returning();
  return updated;
}
