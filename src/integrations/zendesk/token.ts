import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import type { Customer } from '../../realms/credential.js';
import { integrationMissing } from '../../errors/index.js';
import { userName } from '../../realms/users.js';
import { findZendeskIntegration, sharedSecretOf, type ZendeskIntegration } from './settings.js';

/** Zendesk refuses a JWT older than a few minutes; ours lives five. */
const LIFETIME_SECONDS = 300;

async function signFor(ctx: Context, customer: Customer, integration: ZendeskIntegration): Promise<string> {
  const { user } = customer;
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const { SignJWT } = await import('jose');
  return new SignJWT({
    external_id: user.uuid,
    name: userName(user) || user.email,
    email: user.email,
    // Zendesk trusts a verified address to merge the help-desk account: only a proven one is said to be.
    email_verified: user.emailVerifiedAt !== null,
    scope: 'user',
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: integration.keyId })
    .setIssuedAt(now)
    .setExpirationTime(now + LIFETIME_SECONDS)
    .setJti(randomUUID())
    .sign(new TextEncoder().encode(sharedSecretOf(ctx, integration)));
}

async function integrationOf(ctx: Context, customer: Customer): Promise<ZendeskIntegration> {
  const integration = await findZendeskIntegration(ctx, customer.realm);
  if (!integration) throw integrationMissing('Zendesk');
  return integration;
}

/** A JWT that signs the customer in to the realm's help desk (Zendesk JWT single sign-on and messaging authentication). */
export async function zendeskToken(ctx: Context, customer: Customer): Promise<{ token: string }> {
  return { token: await signFor(ctx, customer, await integrationOf(ctx, customer)) };
}

/** The address that signs the customer in to the help desk's web pages. */
export async function zendeskSsoUrl(ctx: Context, customer: Customer): Promise<{ url: string }> {
  const integration = await integrationOf(ctx, customer);
  const jwt = await signFor(ctx, customer, integration);
  return { url: `https://${integration.subdomain}.zendesk.com/access/jwt?${new URLSearchParams({ jwt })}` };
}
