import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import type { Realm } from './realms.js';
import { realmUserLinks } from '../tables/realms.js';

/**
 * What a link lets its holder do; one live link per purpose and user (or email, for an invitation).
 * An `email_change` link's email is the new address it proves (email-change.ts).
 */
export type LinkPurpose = 'password_reset' | 'activation' | 'invitation' | 'email_change';

export interface LinkRequest {
  purpose: LinkPurpose;
  userId: number | null;
  email: string;
  lifetimeMs: number;
  /** A safe redirect_uri (redirects.ts) the journey resumes at once the link is used. */
  redirectUri?: string | null;
}

export type RealmUserLink = typeof realmUserLinks.$inferSelect;

export type LinkLookup =
  | { ok: true; link: RealmUserLink }
  /** `unknown`: no such link for this purpose in the realm; `gone`: it was used, replaced or has expired. */
  | { ok: false; reason: 'unknown' | 'gone' };

const sameHolder = (realm: Realm, request: Pick<LinkRequest, 'purpose' | 'userId' | 'email'>) => and(
  eq(realmUserLinks.realmId, realm.id),
  eq(realmUserLinks.purpose, request.purpose),
  request.userId === null ? and(isNull(realmUserLinks.userId), eq(realmUserLinks.email, request.email)) : eq(realmUserLinks.userId, request.userId),
);

const LINKS_LOCK = 727_003;

/**
 * A fresh one-time link token (256 random bits; only its SHA-256 is stored). The holder's older links
 * of the same purpose stop working: they are marked expired now. Issues for one holder and purpose are
 * serialized, so that of simultaneous ones only the last stays usable.
 */
export async function issueLink(ctx: Context, realm: Realm, request: LinkRequest): Promise<{ token: string; expiresAt: Date }> {
  const token = randomSecret();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + request.lifetimeMs);
  const holder = `${realm.id}:${request.purpose}:${request.userId ?? request.email.toLowerCase()}`;
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LINKS_LOCK}, hashtext(${holder}))`);
    await expireLinks({ db: tx, clock: ctx.clock }, realm, request);
    await tx.insert(realmUserLinks).values({
      realmId: realm.id, userId: request.userId, purpose: request.purpose, email: request.email,
      tokenHash: hashSecret(token), redirectUri: request.redirectUri ?? null, expiresAt, createdAt: now,
    });
  });
  return { token, expiresAt };
}

/** The holder's live links of the purpose stop working: they are marked expired now. */
export async function expireLinks(ctx: Pick<Context, 'db' | 'clock'>, realm: Realm, holder: Pick<LinkRequest, 'purpose' | 'userId' | 'email'>): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.update(realmUserLinks).set({ expiresAt: now })
    .where(and(sameHolder(realm, holder), isNull(realmUserLinks.usedAt), gt(realmUserLinks.expiresAt, now)));
}

const byToken = (realm: Realm, purpose: LinkPurpose, token: string) => and(
  eq(realmUserLinks.tokenHash, hashSecret(token)), eq(realmUserLinks.realmId, realm.id), eq(realmUserLinks.purpose, purpose),
);

/** Whether a link would work now, without using it (a page showing the link's form). */
export async function findLink(ctx: Context, realm: Realm, purpose: LinkPurpose, token: string): Promise<LinkLookup> {
  const [link] = await ctx.db.select().from(realmUserLinks).where(byToken(realm, purpose, token));
  if (!link) return { ok: false, reason: 'unknown' };
  if (link.usedAt || link.expiresAt <= ctx.clock.now()) return { ok: false, reason: 'gone' };
  return { ok: true, link };
}

/**
 * Uses a link up. One conditional UPDATE claims it, so of any number of simultaneous claims exactly
 * one gets the link. Given a transaction's `db`, the claim is undone with it (what the link was for failed).
 */
export async function claimLink(ctx: Pick<Context, 'db' | 'clock'>, realm: Realm, purpose: LinkPurpose, token: string): Promise<LinkLookup> {
  const now = ctx.clock.now();
  const [link] = await ctx.db.update(realmUserLinks).set({ usedAt: now })
    .where(and(byToken(realm, purpose, token), isNull(realmUserLinks.usedAt), gt(realmUserLinks.expiresAt, now)))
    .returning();
  if (link) return { ok: true, link };
  const [known] = await ctx.db.select({ id: realmUserLinks.id }).from(realmUserLinks).where(byToken(realm, purpose, token));
  return { ok: false, reason: known ? 'gone' : 'unknown' };
}
