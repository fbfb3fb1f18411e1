import { Type } from '@sinclair/typebox';
import { DateTime, Id, ref, Nullable } from '../http/models.js';
import { Meta } from '../http/pagination.js';

/** The limits of a notification's content, checked by `checkContent` (notifications.ts). */
export const LIMITS = { subject: 255, body: 10_000, url: 2048 } as const;

export const NotificationModel = Type.Object({
  id: Id(),
  subject: Type.String(),
  body: Type.String({ description: 'Plain text; empty when none was given' }),
  url: Nullable(Type.String(), 'An absolute http(s) address or a path, or null'),
  opened: Type.Boolean({ description: 'Whether the user has opened it (or marked every notification read)' }),
  sent_at: DateTime,
}, { $id: 'Notification', description: 'A message in a realm user\'s inbox' });

export const NotificationInput = Type.Object({
  subject: Type.String({ description: `Required; at most ${LIMITS.subject} characters (surrounding blanks are trimmed)` }),
  body: Type.Optional(Type.String({ description: `Plain text, at most ${LIMITS.body} characters (default empty)` })),
  url: Type.Optional(Nullable(Type.String(),
    `Where the notification leads: an absolute http or https address, or a path starting with a single "/"; `
      + `at most ${LIMITS.url} characters, no blanks or backslashes. Null or "" for none`)),
}, { additionalProperties: false });

export const InboxModel = Type.Object({
  notifications: Type.Array(ref(NotificationModel), { description: 'Unread first, then newest first' }),
  meta: ref(Meta),
  unread_count: Type.Integer({ minimum: 0, description: 'How many of the user\'s notifications are unread, on every page' }),
}, { $id: 'Inbox', description: 'A page of a realm user\'s notifications' });

export const OpenedAllModel = Type.Object({
  opened: Type.Integer({ minimum: 0, description: 'How many unread notifications this request marked read (0 when none were left)' }),
}, { $id: 'OpenedAll' });

export const NotificationParams = Type.Object({
  realm_uid: Type.String({ description: 'The realm\'s uid' }),
  // Any positive integer: one that names no notification of the user, past 2^31 too, answers 404 `{}` like any unknown id.
  id: Type.Integer({ minimum: 1, finite: true, description: 'The notification\'s id' }),
});
