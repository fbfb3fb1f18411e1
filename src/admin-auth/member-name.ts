import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { admins } from '../tables/admin-auth.js';

/** How a team member is named to others (a submission's assignee, a lock's holder, a version's publisher): first and last name, else the email. */
export const adminName = (admin: { firstName: string; lastName: string; email: string }) =>
  [admin.firstName, admin.lastName].filter(Boolean).join(' ') || admin.email;

/** The name of the member with this id, or null when there is none. */
export async function memberName(ctx: Pick<Context, 'db'>, adminId: number): Promise<string | null> {
  const [admin] = await ctx.db.select({ firstName: admins.firstName, lastName: admins.lastName, email: admins.email }).from(admins)
    .where(eq(admins.id, adminId));
  return admin ? adminName(admin) : null;
}
