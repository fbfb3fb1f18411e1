import { sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import { messageOfToken } from './links.js';

/**
 * The tracking pixel was fetched: the message is opened, its first opening kept. Mail clients and
 * privacy proxies that fetch every image ahead make this an upper bound of real openings.
 */
export async function recordOpen(ctx: Context, token: string): Promise<void> {
  const id = messageOfToken(ctx.config, token);
  if (id === null) return;
  await ctx.db.execute(sql`update message_deliveries set opened_at = ${ctx.clock.now().toISOString()}::timestamptz
    where id = ${id} and opened_at is null`);
}

/** The realm name of the message a link names, or null when the link is not one of ours (or its message is gone). */
export async function realmOfLink(ctx: Context, token: string): Promise<{ name: string; defaultLanguage: string } | null> {
  const id = messageOfToken(ctx.config, token);
  if (id === null) return null;
  const [row] = rowsOf<{ name: string; default_language: string }>(await ctx.db.execute(sql`select r.name, r.default_language
    from message_deliveries m join realm_users u on u.id = m.user_id join realms r on r.id = u.realm_id where m.id = ${id}`));
  return row ? { name: row.name, defaultLanguage: row.default_language } : null;
}

/** The recipient of the message a link names asks for no more campaign mail; answers false for a link that is not ours. */
export async function unsubscribe(ctx: Context, token: string): Promise<boolean> {
  const id = messageOfToken(ctx.config, token);
  if (id === null) return false;
  const rows = rowsOf(await ctx.db.execute(sql`insert into messaging_unsubscribes (user_id, created_at)
    select user_id, ${ctx.clock.now().toISOString()}::timestamptz from message_deliveries where id = ${id}
    on conflict (user_id) do nothing returning user_id`));
  if (rows.length) return true;
  return rowsOf(await ctx.db.execute(sql`select 1 from message_deliveries where id = ${id}`)).length > 0;
}
