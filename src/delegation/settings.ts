import { and, eq, ne, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import { actorOf, recordAudit } from '../audit/log.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { FieldErrors, forbidden, identityProviderMissing, invalidField, notFound } from '../errors/index.js';
import { fieldsOf } from '../realms/custom-fields.js';
import type { Realm } from '../realms/realms.js';
import { realms } from '../tables/realms.js';
import { pagePath } from '../shared/html/paths.js';
import { discover, issuerProblem, reasonOf, sealClientSecret, type IdentityProvider } from './provider.js';
import type { IdentityProviderInput, IdentityProviderModel } from './schema.js';
import { delegatedTokens, identityProviders, realmUserIdentities, type ClaimMapping } from '../tables/delegation.js';

type Input = Static<typeof IdentityProviderInput>;
export type IdentityProviderBody = Static<typeof IdentityProviderModel>;

export const DEFAULT_SCOPES = ['openid', 'email', 'profile'];
const DEFAULT_MAPPING: ClaimMapping = { first_name: 'given_name', last_name: 'family_name' };
/** RFC 6749 section 3.3's scope-token. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
/** A claim name: printable, no spaces. */
const CLAIM = /^[^\s\u0000-\u001f\u007f]{1,100}$/;

/** The audit log's operation for a realm's issuer set, changed or removed. */
export const ISSUER_CHANGED = 'identity_provider_issuer_changed';
const DISCOVERY_FAILED = 'could not be discovered as an OpenID Connect provider: could not reach the issuer, or it answered no usable discovery document';

/** Where the provider sends the browser back: the callback page of the realm at the base address. */
export const callbackPath = (realm: Pick<Realm, 'uid'>) => `${pagePath(realm, 'delegated_login')}/callback`;

function providerBody(ctx: Context, realm: Realm, row: IdentityProvider): IdentityProviderBody {
  return {
    issuer: row.issuer,
    client_id: row.clientId,
    client_secret_set: true,
    scopes: row.scopes,
    button_label: row.buttonLabel,
    show_delegation_information: realm.showDelegationInformation,
    claim_mapping: row.claimMapping,
    redirect_uri: `${ctx.config.baseUrl}${callbackPath(realm)}`,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const providerOfRealm = (db: Db) => prepared(db, 'identity_provider_of_realm', (d, name) => d.select().from(identityProviders)
  .where(eq(identityProviders.realmId, sql.placeholder('realmId'))).prepare(name));

/** Every login page of a realm asks whether it has a provider: the answer is cached with the realm's other customer data. */
export async function findIdentityProvider(ctx: Context, realmId: number): Promise<IdentityProvider | undefined> {
  const cache = ctx.caches.of<IdentityProvider | null>('customers');
  const key = `identity_provider:${realmId}`;
  const known = cache.get(key, ctx.clock.now());
  if (known !== undefined) return known ?? undefined;
  const [row] = await providerOfRealm(ctx.db).execute({ realmId });
  cache.set(key, row ?? null, ctx.clock.now(), [`realm:${realmId}`]);
  return row;
}

export async function getIdentityProvider(ctx: ActingContext, realm: Realm): Promise<IdentityProviderBody> {
  ctx.actor.assertHolds('realms.read', realm.uid);
  const row = await findIdentityProvider(ctx, realm.id);
  if (!row) throw identityProviderMissing();
  return providerBody(ctx, realm, row);
}

function checkedScopes(scopes: string[] | undefined, errors: FieldErrors): string[] | undefined {
  if (scopes === undefined) return undefined;
  const unique = [...new Set(scopes.map((s) => s.trim()).filter(Boolean))];
  if (unique.some((s) => !SCOPE_TOKEN.test(s))) errors.add('scopes', 'may hold only scope names without spaces or quotes');
  else if (!unique.includes('openid')) errors.add('scopes', 'must include openid');
  return unique;
}

async function checkedMapping(ctx: Context, realm: Realm, mapping: Input['claim_mapping'], errors: FieldErrors): Promise<ClaimMapping | undefined> {
  if (mapping === undefined) return undefined;
  const out: ClaimMapping = {};
  for (const target of ['first_name', 'last_name', 'second_last_name', 'username'] as const) {
    const claim = mapping[target]?.trim();
    if (!claim) continue;
    if (!CLAIM.test(claim)) errors.add(`claim_mapping.${target}`, 'must be a claim name without spaces (at most 100 characters)');
    out[target] = claim;
  }
  const custom = mapping.custom_fields ?? {};
  if (Object.keys(custom).length) {
    const keys = new Set((await fieldsOf(ctx, realm.id)).map((f) => f.key));
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(custom)) {
      const claim = value.trim();
      if (!keys.has(key)) errors.add(`claim_mapping.custom_fields.${key}`, 'is not a custom field of this realm');
      else if (!CLAIM.test(claim)) errors.add(`claim_mapping.custom_fields.${key}`, 'must be a claim name without spaces (at most 100 characters)');
      else fields[key] = claim;
    }
    if (Object.keys(fields).length) out.custom_fields = fields;
  }
  return out;
}

/**
 * Whoever chooses the provider chooses who signs in as any user of the realm: setting, changing or
 * removing it needs impersonation's permission on the realm, beside realms.manage (the route's).
 */
function requireImpersonation(ctx: ActingContext, realm: Realm): void {
  if (!ctx.actor.holdsOn('realm.users.impersonate', realm.uid)) {
    throw forbidden('Changing a realm\'s identity provider needs realm.users.impersonate on the realm: the provider can sign in as any of its users');
  }
}

/** A new, changed or removed issuer is recorded in the audit log, beside the record of the request itself. */
async function recordIssuerChange(tx: Db, ctx: ActingContext, realm: Realm, address: string | null, statusCode: number): Promise<void> {
  await recordAudit(tx, ctx.clock.now(), {
    actor: actorOf(ctx.actor), operation: ISSUER_CHANGED, resourceType: 'identity_provider', resourceId: realm.uid, realmUid: realm.uid, address, changed: ['issuer'], statusCode,
  });
}

/**
 * Sets up or changes the realm's provider. Partial once set up (the client secret left out is kept);
 * the result is checked by OpenID discovery, whose failure is a 422 on `issuer`. The issuer stored
 * is the one the provider's metadata names. `show_delegation_information` is written to the realm.
 */
export async function putIdentityProvider(ctx: ActingContext, realm: Realm, input: Input, address: string | null): Promise<IdentityProviderBody> {
  requireImpersonation(ctx, realm);
  const stored = await findIdentityProvider(ctx, realm.id);
  const errors = new FieldErrors();
  const required = (field: string, value: string | undefined) => {
    if (value === '' || (value === undefined && !stored)) errors.add(field, "can't be blank");
  };
  const issuer = input.issuer?.trim();
  const clientId = input.client_id?.trim();
  const buttonLabel = input.button_label?.trim();
  const secret = input.client_secret === undefined ? undefined : input.client_secret.trim() && input.client_secret;
  required('issuer', issuer);
  required('client_id', clientId);
  required('client_secret', secret);
  required('button_label', buttonLabel);
  const issuerIssue = issuer ? issuerProblem(issuer, ctx.config.outboundAllowPrivate) : null;
  if (issuerIssue) errors.add('issuer', issuerIssue);
  const scopes = checkedScopes(input.scopes, errors);
  const mapping = await checkedMapping(ctx, realm, input.claim_mapping, errors);
  errors.throwIfAny();

  const wanted = {
    issuer: issuer ?? stored!.issuer,
    clientId: clientId ?? stored!.clientId,
    secret: secret ?? undefined,
  };
  let discoveredIssuer: string;
  try {
    const metadata = await discover(ctx, wanted.issuer, wanted.clientId);
    discoveredIssuer = metadata.issuer;
  } catch (err) {
    ctx.log.warn({ realm: realm.uid, reason: reasonOf(err) }, 'identity provider discovery failed');
    // One answer for every failure: a refused address, a closed port, an error page and a wrong document look alike.
    throw invalidField('issuer', DISCOVERY_FAILED);
  }

  const now = ctx.clock.now();
  const sealedClientSecret = wanted.secret === undefined ? undefined : sealClientSecret(ctx, realm.id, wanted.secret);
  // Only what was sent is written: an issuer or client left out keeps the value a concurrent change gave it.
  const changes = {
    issuer: issuer === undefined ? undefined : discoveredIssuer, clientId, sealedClientSecret, scopes, buttonLabel, claimMapping: mapping, updatedAt: now,
  };
  const { row, realmRow } = await ctx.db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: realms.id }).from(realms).where(eq(realms.id, realm.id)).for('no key update');
    if (!locked) throw notFound('Realm');
    const [row] = stored
      ? await tx.update(identityProviders).set(changes).where(eq(identityProviders.realmId, realm.id)).returning()
      : await tx.insert(identityProviders).values({
        realmId: realm.id, issuer: discoveredIssuer, clientId: wanted.clientId, sealedClientSecret: sealedClientSecret!,
        scopes: scopes ?? DEFAULT_SCOPES, buttonLabel: buttonLabel!, claimMapping: mapping ?? DEFAULT_MAPPING, createdAt: now, updatedAt: now,
      }).onConflictDoUpdate({ target: identityProviders.realmId, set: changes }).returning();
    if (!row) throw identityProviderMissing();
    // What belonged to another issuer goes with it: its tokens could not be refreshed, its accounts are not this provider's.
    await forgetOtherIssuers(tx, realm.id, row.issuer);
    if (stored?.issuer !== row.issuer) await recordIssuerChange(tx, ctx, realm, address, 200);
    const [realmRow] = input.show_delegation_information === undefined
      ? [realm]
      : await tx.update(realms).set({ showDelegationInformation: input.show_delegation_information, updatedAt: now })
        .where(eq(realms.id, realm.id)).returning();
    return { row, realmRow };
  });
  ctx.caches.changed('customers', `realm:${realm.id}`);
  return providerBody(ctx, realmRow, row);
}

async function forgetOtherIssuers(tx: Db, realmId: number, issuer: string | null): Promise<void> {
  const other = <T extends typeof delegatedTokens | typeof realmUserIdentities>(t: T) =>
    and(eq(t.realmId, realmId), issuer === null ? undefined : ne(t.issuer, issuer));
  await tx.delete(delegatedTokens).where(other(delegatedTokens));
  await tx.delete(realmUserIdentities).where(other(realmUserIdentities));
}

/**
 * Removes the provider, with the provider tokens kept for sessions (GET /me then shows none) and the
 * users' links to their provider accounts. The users, their sessions and the realm's
 * show_delegation_information setting stay.
 */
export async function deleteIdentityProvider(ctx: ActingContext, realm: Realm, address: string | null): Promise<void> {
  requireImpersonation(ctx, realm);
  const removed = await ctx.db.transaction(async (tx) => {
    const rows = await tx.delete(identityProviders).where(eq(identityProviders.realmId, realm.id)).returning({ id: identityProviders.realmId });
    if (rows.length) {
      await forgetOtherIssuers(tx, realm.id, null);
      await recordIssuerChange(tx, ctx, realm, address, 204);
    }
    return rows.length;
  });
  if (!removed) throw identityProviderMissing();
  ctx.caches.changed('customers', `realm:${realm.id}`);
}
