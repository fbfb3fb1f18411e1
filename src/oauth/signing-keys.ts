import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { CryptoKey, JWK } from 'jose';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Realm } from '../realms/realms.js';
import { seal, unseal } from '../security/sealed.js';
import { secretsKey } from '../security/secrets-key.js';
import { realmSigningKeys } from '../tables/oauth.js';

/** RS256, as OpenID Connect Discovery requires every provider to offer. */
export const SIGNING_ALG = 'RS256';
/** How long an ID token lives, hence how long a retired key stays published. */
export const ID_TOKEN_LIFETIME_S = 3600;

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
}

const sealedFor = (kid: string) => `realm-signing-key:${kid}`;

/** Private keys opened in this process, by kid: a key never changes once made, so it is kept until the process ends. */
const opened = new Map<string, Promise<CryptoKey>>();

function openKey(ctx: Context, kid: string, alg: string, sealed: string): Promise<CryptoKey> {
  let key = opened.get(kid);
  if (!key) {
    key = import('jose').then(({ importJWK }) => importJWK(JSON.parse(unseal(secretsKey(ctx.config), sealed, sealedFor(kid))) as JWK, alg) as Promise<CryptoKey>);
    key.catch(() => opened.delete(kid));
    opened.set(kid, key);
  }
  return key;
}

/** Makes the realm's key in use when it has none; answers false when another request or server made one first. */
async function makeKey(ctx: Context, realmId: number): Promise<boolean> {
  const { exportJWK, generateKeyPair } = await import('jose');
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true, modulusLength: 2048 });
  const kid = randomUUID();
  const publicJwk = { ...await exportJWK(publicKey), kid, alg: SIGNING_ALG, use: 'sig' };
  const sealedPrivateJwk = seal(secretsKey(ctx.config), JSON.stringify(await exportJWK(privateKey)), sealedFor(kid));
  // One key in use per realm (a partial unique index): of servers making one at once, the first insert wins.
  const made = await ctx.db.insert(realmSigningKeys).values({ realmId, kid, alg: SIGNING_ALG, publicJwk, sealedPrivateJwk, createdAt: ctx.clock.now() })
    .onConflictDoNothing().returning({ kid: realmSigningKeys.kid });
  if (made.length) opened.set(kid, Promise.resolve(privateKey));
  return made.length > 0;
}

const inUse = (ctx: Context, realmId: number) => ctx.db.select().from(realmSigningKeys)
  .where(and(eq(realmSigningKeys.realmId, realmId), isNull(realmSigningKeys.retiredAt)));

/** Requests of this process waiting for a realm's first key share its making. */
const making = new Map<number, Promise<unknown>>();

/**
 * The realm's key in use, made on first need; kept briefly in the customers cache (every ID token is signed
 * with it), whose notice a rotation on any server sends.
 */
export async function currentSigningKey(ctx: Context, realmId: number): Promise<SigningKey> {
  const keys = ctx.caches.of<{ kid: string; alg: string; sealed: string }>('customers');
  const cacheKey = `signing-key:${realmId}`;
  const now = ctx.clock.now();
  let row = keys.get(cacheKey, now);
  if (!row) {
    let [found] = await inUse(ctx, realmId);
    if (!found) {
      let made = making.get(realmId);
      if (!made) {
        made = makeKey(ctx, realmId).finally(() => making.delete(realmId));
        making.set(realmId, made);
      }
      await made;
      [found] = await inUse(ctx, realmId);
    }
    row = { kid: found.kid, alg: found.alg, sealed: found.sealedPrivateJwk };
    keys.set(cacheKey, row, now, [`signing-keys:${realmId}`]);
  }
  return { kid: row.kid, alg: row.alg, privateKey: await openKey(ctx, row.kid, row.alg, row.sealed) };
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
 * Retires the realm's key in use and makes a new one (an admin action): ID tokens signed before still verify,
 * the old key being published, until they expire.
 */
export async function rotateSigningKey(ctx: ActingContext, realm: Pick<Realm, 'id' | 'uid'>): Promise<{ kid: string }> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  await ctx.db.update(realmSigningKeys).set({ retiredAt: ctx.clock.now() })
    .where(and(eq(realmSigningKeys.realmId, realm.id), isNull(realmSigningKeys.retiredAt)));
  ctx.caches.changed('customers', `signing-keys:${realm.id}`);
  return { kid: (await currentSigningKey(ctx, realm.id)).kid };
}
