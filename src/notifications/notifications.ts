import { sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import { FieldErrors, notFound } from '../errors/index.js';
import { linkProblem } from '../http/links.js';
import { INT32_MAX } from '../http/models.js';
import type { Realm } from '../realms/realms.js';
import { LIMITS, type NotificationInput, type NotificationModel } from './schema.js';
import { notifications } from '../tables/notifications.js';

export type Notification = typeof notifications.$inferSelect;
export type NotificationBody = Static<typeof NotificationModel>;

/** A notification's content once checked: what every recipient of one sending gets. */
export interface NotificationContent {
  subject: string;
  body: string;
  url: string | null;
}

export function notificationBody(notification: Notification): NotificationBody {
  return {
    id: notification.id,
    subject: notification.subject,
    body: notification.body,
    url: notification.url,
    opened: notification.openedAt !== null,
    sent_at: notification.sentAt.toISOString(),
  };
}

/** Checks a notification's content (limits in schema.ts); one 422 names every problem. */
export function checkContent(input: Static<typeof NotificationInput>): NotificationContent {
  const errors = new FieldErrors();
  const subject = input.subject.trim();
  if (!subject) errors.add('subject', "can't be blank");
  else if (subject.length > LIMITS.subject) errors.add('subject', `is too long (maximum is ${LIMITS.subject} characters)`);
  const body = input.body ?? '';
  if (body.length > LIMITS.body) errors.add('body', `is too long (maximum is ${LIMITS.body} characters)`);
  const url = input.url?.trim() || null;
  const problem = url === null ? null : linkProblem(url, { max: LIMITS.url, schemes: ['http', 'https'] });
  if (problem) errors.add('url', problem);
  errors.throwIfAny();
  return { subject, body, url };
}

/**
 * Sends the same notification to many users of a realm in one statement (a campaign's sending, or an
 * admin's to one user), all with the same `sent_at`, the clock's now. Ids that name no user of this
 * realm are skipped: the answer holds one notification per user reached.
 */
export async function createNotifications(ctx: Pick<Context, 'db' | 'clock'>, realm: Realm, userIds: number[], content: NotificationContent): Promise<Notification[]> {
  const ids = [...new Set(userIds)].filter((id) => Number.isInteger(id) && id >= 1 && id <= INT32_MAX);
  if (!ids.length) return [];
  const sentAt = ctx.clock.now();
  const rows = rowsOf<{ id: number; user_id: number }>(await ctx.db.execute(sql`
    insert into notifications (realm_id, user_id, subject, body, url, sent_at)
    select realm_id, id, ${content.subject}, ${content.body}, ${content.url}, ${sentAt.toISOString()}::timestamptz
    from realm_users where realm_id = ${realm.id} and id = any(${`{${ids.join(',')}}`}::int[])
    returning id, user_id`));
  return rows.map((row) => ({ id: row.id, realmId: realm.id, userId: row.user_id, ...content, sentAt, openedAt: null }));
}

/**
 * Notifications each with its own subject and body (a campaign rendered per user), in one statement,
 * all sent at `sentAt`; users of another realm are skipped. Answers the notification of each user reached.
 */
export async function createPersonalNotifications(
  db: Context['db'], realmId: number, items: { userId: number; subject: string; body: string }[], sentAt: Date,
): Promise<{ id: number; userId: number }[]> {
  if (!items.length) return [];
  const rows = rowsOf<{ id: number; user_id: number }>(await db.execute(sql`
    insert into notifications (realm_id, user_id, subject, body, url, sent_at)
    select u.realm_id, u.id, x.subject, x.body, null, ${sentAt.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(items)}::jsonb) as x("userId" int, subject text, body text)
    join realm_users u on u.id = x."userId" and u.realm_id = ${realmId}
    returning id, user_id`));
  return rows.map((row) => ({ id: row.id, userId: row.user_id }));
}

/** An admin's notification to one user of the realm (404 when the realm has no such user). */
export async function sendNotification(ctx: ActingContext, realm: Realm, userId: number, input: Static<typeof NotificationInput>): Promise<NotificationBody> {
  ctx.actor.assertHolds('realm.activity.write', realm.uid);
  const [sent] = await createNotifications(ctx, realm, [userId], checkContent(input));
  if (!sent) throw notFound('User');
  return notificationBody(sent);
}
