import { createPrivateKey, generateKeyPair, randomUUID, type JsonWebKey, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { and, desc, eq, gt, isNull, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { JWK } from 'jose';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Realm } from '../realms/realms.js';
import { seal, unseal } from '../security/sealed.js';
import { secretsKey } from '../security/secrets-key.js';
import type { Job } from '../jobs/runner.js';
import { realmSigningKeys } from '../tables/oauth.js';
import { realms } from '../tables/realms.js';

/** RS256, as OpenID Connect Discovery requires every provider to offer, and ES256 for a client that asks for it. */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];
export const DEFAULT_SIGNING_ALG: SigningAlg = 'RS256';
/** How long an ID token lives, hence how long a retired key stays published. */
export const ID_TOKEN_LIFETIME_S = 3600;

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: KeyObject;
}

const sealedFor = (kid: string) => `realm-signing-key:${kid}`;

/** Private keys opened in this process, by kid: a key never changes once made, so it is kept until the process ends. */
const opened = new Map<string, KeyObject>();

function openKey(ctx: Context, kid: string, sealed: string): KeyObject {
  let key = opened.get(kid);
  if (!key) {
    key = createPrivateKey({ key: JSON.parse(unseal(secretsKey(ctx.config), sealed, sealedFor(kid))) as JsonWebKey, format: 'jwk' });
    opened.set(kid, key);
  }
  return key;
}

const newKeyPair = promisify(generateKeyPair);

/** Makes the realm's key in use for `alg` when it has none; answers false when another request or server made one first. */
async function makeKey(ctx: Context, realmId: number, alg: SigningAlg): Promise<boolean> {
  const { publicKey, privateKey } = alg === 'RS256'
    ? await newKeyPair('rsa', { modulusLength: 2048 })
    : await newKeyPair('ec', { namedCurve: 'P-256' });
  const kid = randomUUID();
  const publicJwk = { ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' };
  const sealedPrivateJwk = seal(secretsKey(ctx.config), JSON.stringify(privateKey.export({ format: 'jwk' })), sealedFor(kid));
  // One key in use per realm and algorithm (a partial unique index): of servers making one at once, the first insert wins.
  const made = await ctx.db.insert(realmSigningKeys).values({ realmId, kid, alg, publicJwk, sealedPrivateJwk, createdAt: ctx.clock.now() })
    .onConflictDoNothing().returning({ kid: realmSigningKeys.kid });
  if (made.length) opened.set(kid, privateKey);
  return made.length > 0;
}

const inUse = (ctx: Context, realmId: number, alg: SigningAlg) => ctx.db.select().from(realmSigningKeys)
  .where(and(eq(realmSigningKeys.realmId, realmId), eq(realmSigningKeys.alg, alg), isNull(realmSigningKeys.retiredAt)));

/** Requests of this process waiting for a realm's first key of an algorithm share its making. */
const making = new Map<string, Promise<unknown>>();

/**
 * The realm's key in use for `alg`, made on first need; kept briefly in the customers cache (every ID token is
 * signed with one), whose notice a rotation on any server sends.
 */
export async function currentSigningKey(ctx: Context, realmId: number, alg: SigningAlg = DEFAULT_SIGNING_ALG): Promise<SigningKey> {
  const keys = ctx.caches.of<{ kid: string; alg: string; sealed: string }>('customers');
  const cacheKey = `signing-key:${realmId}:${alg}`;
  const now = ctx.clock.now();
  let row = keys.get(cacheKey, now);
  if (!row) {
    let [found] = await inUse(ctx, realmId, alg);
    if (!found) {
      let made = making.get(cacheKey);
      if (!made) {
        made = makeKey(ctx, realmId, alg).finally(() => making.delete(cacheKey));
        making.set(cacheKey, made);
      }
      await made;
      [found] = await inUse(ctx, realmId, alg);
    }
    row = { kid: found.kid, alg: found.alg, sealed: found.sealedPrivateJwk };
    keys.set(cacheKey, row, now, [`signing-keys:${realmId}`]);
  }
  return { kid: row.kid, alg: row.alg, privateKey: openKey(ctx, row.kid, row.sealed) };
}

/** The public keys a client may meet in a token: the keys in use and those retired less than a token's lifetime ago. */
export async function publishedKeys(ctx: Context, realmId: number): Promise<{ keys: JWK[] }> {
  const since = new Date(ctx.clock.now().getTime() - ID_TOKEN_LIFETIME_S * 1000);
  const rows = await ctx.db.select({ publicJwk: realmSigningKeys.publicJwk }).from(realmSigningKeys)
    .where(and(eq(realmSigningKeys.realmId, realmId), or(isNull(realmSigningKeys.retiredAt), gt(realmSigningKeys.retiredAt, since))))
    .orderBy(desc(realmSigningKeys.id));
  return { keys: rows.map((r) => r.publicJwk as JWK) };
}

/**
 * Retires the realm's keys in use and makes a new RS256 one (an admin action; an ES256 one is made on its first
 * need): ID tokens signed before still verify, the old keys being published, until they expire.
 */
export async function rotateSigningKey(ctx: ActingContext, realm: Pick<Realm, 'id' | 'uid'>): Promise<{ kid: string }> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  await retireKeys(ctx, realm.id);
  return { kid: (await currentSigningKey(ctx, realm.id)).kid };
}

async function retireKeys(ctx: Context, realmId: number, olderThan?: Date): Promise<number> {
  const retired = await ctx.db.update(realmSigningKeys).set({ retiredAt: ctx.clock.now() })
    .where(and(eq(realmSigningKeys.realmId, realmId), isNull(realmSigningKeys.retiredAt), olderThan ? lt(realmSigningKeys.createdAt, olderThan) : undefined))
    .returning({ id: realmSigningKeys.id });
  if (retired.length) ctx.caches.changed('customers', `signing-keys:${realmId}`);
  return retired.length;
}

/**
 * The scheduled rotation: in each realm with OpenID Connect and `signing_key_rotation_days`, the keys in use that old
 * are retired (still published for an ID token's lifetime); the next token signed makes the new key.
 */
export async function rotateDueSigningKeys(ctx: Context): Promise<number> {
  const now = ctx.clock.now().getTime();
  const due = await ctx.db.select({ id: realms.id, days: realms.signingKeyRotationDays }).from(realms)
    .where(and(eq(realms.openidConnectEnabled, true), isNotNull(realms.signingKeyRotationDays), sql`exists (
      select 1 from ${realmSigningKeys} k where k.realm_id = ${realms.id} and k.retired_at is null
        and k.created_at < ${new Date(now).toISOString()}::timestamptz - make_interval(days => ${realms.signingKeyRotationDays}))`));
  let retired = 0;
  for (const realm of due) retired += await retireKeys(ctx, realm.id, new Date(now - realm.days! * 86_400_000));
  return retired;
}

export const signingKeyRotationJob: Job = { name: 'signing-key-rotation', everyMs: 3_600_000, leaseMs: 5 * 60_000, run: rotateDueSigningKeys };
