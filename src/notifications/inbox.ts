import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { totalCount, type Page } from '../db/paging.js';
import { recordEvent } from '../events/events.js';
import { notificationNotFound } from '../errors/index.js';
import { INT32_MAX } from '../http/models.js';
import type { Customer } from '../realms/credential.js';
import type { Realm } from '../realms/realms.js';
import { findRealmUser } from '../realms/users.js';
import { notificationBody, type NotificationBody } from './notifications.js';
import { notifications } from '../tables/notifications.js';

const unread = isNull(notifications.openedAt);
const unreadCount = sql<number>`count(*) filter (where ${unread})`.mapWith(Number);

/** Unread first, then newest first: the order `notifications_inbox_idx` (tables/notifications.ts) holds for each user. */
const INBOX_ORDER = [sql`(${notifications.openedAt} is not null)`, desc(notifications.sentAt), desc(notifications.id)];

export interface Inbox {
  items: NotificationBody[];
  total: number;
  unread: number;
}

/** A page of a realm user's notifications, with their total and unread counts taken in the same query. */
export async function listInbox(ctx: Context, userId: number, page: Page): Promise<Inbox> {
  const mine = eq(notifications.userId, userId);
  const rows = await ctx.db.select({ notification: notifications, total: totalCount, unread: sql<number>`${unreadCount} over ()`.mapWith(Number) })
    .from(notifications).where(mine).orderBy(...INBOX_ORDER).limit(page.perPage).offset(page.offset);
  // A page past the end has no row to carry the counts.
  const [counts] = rows.length ? rows : await ctx.db.select({ total: count(), unread: unreadCount }).from(notifications).where(mine);
  return { items: rows.map((r) => notificationBody(r.notification)), total: counts.total, unread: counts.unread };
}

/** Admin: the inbox of a user of the realm, as the customers API answers it to the user. */
export async function listUserNotifications(ctx: ActingContext, realm: Realm, userId: number, page: Page): Promise<Inbox> {
  ctx.actor.assertHolds('realm.activity.read', realm.uid);
  const user = await findRealmUser(ctx.db, realm, userId);
  return listInbox(ctx, user.id, page);
}

/**
 * Marks one of the user's notifications read. The UPDATE that finds it unread decides the first
 * opener, who alone records `notification_opened_log` (with the impersonating admin, if any), in the
 * same transaction; opening it again answers the notification and records nothing.
 */
export async function openNotification(ctx: Context, customer: Customer, id: number): Promise<NotificationBody> {
  // The id column is 32-bit: past that no notification has the id, and the database would refuse the comparison.
  if (id > INT32_MAX) throw notificationNotFound();
  const { realm, user, session } = customer;
  const target = and(eq(notifications.id, id), eq(notifications.userId, user.id));
  return ctx.db.transaction(async (tx) => {
    const [opened] = await tx.update(notifications).set({ openedAt: ctx.clock.now() }).where(and(target, unread)).returning();
    if (opened) {
      await recordEvent({ ...ctx, db: tx }, {
        realmId: realm.id, userId: user.id, type: 'notification_opened_log', impersonatorId: session.impersonatorId, properties: { notification_id: id },
      });
      return notificationBody(opened);
    }
    const [found] = await tx.select().from(notifications).where(target);
    if (!found) throw notificationNotFound();
    return notificationBody(found);
  });
}

/**
 * Marks every unread notification of the user read; answers how many it marked. It records no
 * event: marking all read is not opening each one, and the user's event log would otherwise fill
 * with an "opened" entry per notification nobody looked at.
 */
export async function openAllNotifications(ctx: Context, customer: Customer): Promise<{ opened: number }> {
  const marked = await ctx.db.update(notifications).set({ openedAt: ctx.clock.now() })
    .where(and(eq(notifications.userId, customer.user.id), unread)).returning({ id: notifications.id });
  return { opened: marked.length };
}
