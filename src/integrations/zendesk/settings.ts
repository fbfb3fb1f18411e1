import { eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../../admin-auth/principal.js';
import type { Context } from '../../context.js';
import { FieldErrors, integrationMissing } from '../../errors/index.js';
import type { Realm } from '../../realms/realms.js';
import { seal, unseal } from '../../security/sealed.js';
import { secretsKey } from '../../security/secrets-key.js';
import type { ZendeskIntegrationInput, ZendeskIntegrationModel } from './schema.js';
import { zendeskIntegrations } from '../../tables/zendesk.js';

export type ZendeskIntegration = typeof zendeskIntegrations.$inferSelect;
export type ZendeskIntegrationBody = Static<typeof ZendeskIntegrationModel>;
type Input = Static<typeof ZendeskIntegrationInput>;

/** A DNS label: what Zendesk accepts as a subdomain. */
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The sealed secret is bound to its realm: copied to another realm's row it does not open. */
const sealContext = (realmId: number) => `zendesk_integrations:${realmId}`;

function integrationBody(row: ZendeskIntegration): ZendeskIntegrationBody {
  return {
    subdomain: row.subdomain, key_id: row.keyId, configured: true,
    created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString(),
  };
}

export async function findZendeskIntegration(ctx: Context, realm: Realm): Promise<ZendeskIntegration | undefined> {
  const [row] = await ctx.db.select().from(zendeskIntegrations).where(eq(zendeskIntegrations.realmId, realm.id));
  return row;
}

async function requireIntegration(ctx: Context, realm: Realm): Promise<ZendeskIntegration> {
  const row = await findZendeskIntegration(ctx, realm);
  if (!row) throw integrationMissing('Zendesk');
  return row;
}

export async function getZendeskIntegration(ctx: ActingContext, realm: Realm): Promise<ZendeskIntegrationBody> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  return integrationBody(await requireIntegration(ctx, realm));
}

/** The shared secret in clear, to sign with. */
export const sharedSecretOf = (ctx: Context, row: ZendeskIntegration) => unseal(secretsKey(ctx.config), row.sealedSecret, sealContext(row.realmId));

/** Checks what was sent; blank values are refused, left-out ones are required only when nothing is stored yet. */
function checked(input: Input, stored: ZendeskIntegration | undefined) {
  const errors = new FieldErrors();
  const subdomain = input.subdomain?.trim().toLowerCase();
  const keyId = input.key_id?.trim();
  const required = (field: string, value: string | undefined) => {
    if (value === '' || (value === undefined && !stored)) errors.add(field, "can't be blank");
  };
  required('subdomain', subdomain);
  required('key_id', keyId);
  required('shared_secret', input.shared_secret === undefined ? undefined : input.shared_secret.trim() && input.shared_secret);
  if (subdomain && !SUBDOMAIN.test(subdomain)) {
    errors.add('subdomain', subdomain.includes('.')
      ? 'must be the subdomain label only (acme for acme.zendesk.com)'
      : 'may hold only letters, digits and hyphens (not first or last), at most 63');
  }
  errors.throwIfAny();
  return { subdomain, keyId, secret: input.shared_secret };
}

/**
 * Sets up or changes a realm's integration. Partial once configured: attributes left out keep their
 * value, the shared secret included. The secret is stored sealed and never answered.
 */
export async function putZendeskIntegration(ctx: ActingContext, realm: Realm, input: Input): Promise<ZendeskIntegrationBody> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  const stored = await findZendeskIntegration(ctx, realm);
  const { subdomain, keyId, secret } = checked(input, stored);
  const now = ctx.clock.now();
  const sealedSecret = secret === undefined ? undefined : seal(secretsKey(ctx.config), secret, sealContext(realm.id));
  const changes = { subdomain, keyId, sealedSecret, updatedAt: now };
  const [row] = stored
    ? await ctx.db.update(zendeskIntegrations).set(changes).where(eq(zendeskIntegrations.realmId, realm.id)).returning()
    : await ctx.db.insert(zendeskIntegrations)
      .values({ realmId: realm.id, subdomain: subdomain!, keyId: keyId!, sealedSecret: sealedSecret!, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: zendeskIntegrations.realmId, set: changes })
      .returning();
  if (!row) throw integrationMissing('Zendesk');
  return integrationBody(row);
}

export async function deleteZendeskIntegration(ctx: ActingContext, realm: Realm): Promise<void> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  const removed = await ctx.db.delete(zendeskIntegrations).where(eq(zendeskIntegrations.realmId, realm.id)).returning({ id: zendeskIntegrations.realmId });
  if (!removed.length) throw integrationMissing('Zendesk');
}
