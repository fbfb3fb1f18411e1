import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { realms } from '../realms/tables.js';

export type OAuthRealm = typeof realms.$inferSelect;

/** The active realm whose custom domain a request's Host names (port and case ignored). */
export async function findRealmByDomain(ctx: Context, host: string): Promise<OAuthRealm | undefined> {
  const name = host.trim().toLowerCase().replace(/:\d+$/, '');
  if (!name) return undefined;
  const [realm] = await ctx.db.select().from(realms).where(and(eq(realms.customDomain, name), eq(realms.active, true)));
  return realm;
}
