import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { oauthClients } from '../tables/oauth.js';
import { sites } from '../tables/sites.js';

/** Where the realm sends a site's users back with their code, on the site's own domain. */
export const siteCallbackUrl = (ctx: Context, domain: string) => `${new URL(ctx.config.baseUrl).protocol}//${domain}/_auth/callback`;

/**
 * On its own domain, where the realm's cookie cannot reach, a site signs its realm's users in as an OAuth
 * client of that realm: a public client (PKCE, no secret anyone holds) whose one redirect URI is the
 * domain's callback. Kept in step with the site: made when it has a realm and a domain, moved with them,
 * removed when either goes. Called in the transaction of the site's write.
 */
export async function syncSiteClient(ctx: Context, siteId: number): Promise<void> {
  const [site] = await ctx.db.select().from(sites).where(eq(sites.id, siteId));
  const [client] = site.oauthClientId === null ? [] : await ctx.db.select().from(oauthClients).where(eq(oauthClients.id, site.oauthClientId));
  const wanted = site.realmId !== null && site.customDomain !== null;
  if (client && (!wanted || client.realmId !== site.realmId)) {
    await ctx.db.delete(oauthClients).where(eq(oauthClients.id, client.id));
  } else if (client && wanted) {
    await ctx.db.update(oauthClients).set({ redirectUris: [siteCallbackUrl(ctx, site.customDomain!)], updatedAt: ctx.clock.now() }).where(eq(oauthClients.id, client.id));
    return;
  }
  if (!wanted) {
    if (site.oauthClientId !== null) await ctx.db.update(sites).set({ oauthClientId: null }).where(eq(sites.id, site.id));
    return;
  }
  const now = ctx.clock.now();
  const [created] = await ctx.db.insert(oauthClients).values({
    uid: randomSecret(24), realmId: site.realmId!, name: `Site ${site.uid}`, secretHash: hashSecret(randomSecret()),
    redirectUris: [siteCallbackUrl(ctx, site.customDomain!)], scopes: ['public'], confidential: false, createdAt: now, updatedAt: now,
  }).returning({ id: oauthClients.id });
  await ctx.db.update(sites).set({ oauthClientId: created.id }).where(eq(sites.id, site.id));
}
