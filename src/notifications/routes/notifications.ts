import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { PERSONAL_ROUTE_NOTE } from '../../admin-auth/personal-data.js';
import { customerOf } from '../../customers/credential.js';
import { credentialFailures, RealmNotFound } from '../../customers/schema.js';
import { ref, useModels } from '../../http/models.js';
import { metaOf, pageOf, PageQuery } from '../../http/pagination.js';
import { failures } from '../../http/responses.js';
import { RealmUserParams } from '../../realms/schema.js';
import { listInbox, listUserNotifications, openAllNotifications, openNotification } from '../inbox.js';
import { sendNotification } from '../notifications.js';
import { InboxModel, LIMITS, NotificationInput, NotificationModel, NotificationParams, OpenedAllModel } from '../schema.js';

const tags = ['Notifications'];

/** Admin catalog: sending a notification to one user of a realm. */
export function notificationAdminRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, NotificationModel, InboxModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/customers/:realm_uid/users/:id/notifications', {
      config: { access: 'realm.activity.write', target: 'realm_uid' },
      schema: {
        tags, summary: 'Send a notification to a user of a realm',
        description: `It appears, unread, in the user's inbox (customers GET /notifications), sent now. \`subject\` is required `
          + `(at most ${LIMITS.subject} characters), \`body\` plain text (at most ${LIMITS.body}), \`url\` an absolute http(s) `
          + `address or a path starting with "/" (at most ${LIMITS.url}); 422 names each invalid attribute.`,
        params: RealmUserParams, body: NotificationInput, response: { 201: ref(NotificationModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const realm = request.realm;
      return reply.code(201).send(await sendNotification(acting(ctx, request), realm, request.params.id, request.body));
    });

    app.get('/customers/:realm_uid/users/:id/notifications', {
      config: { access: 'realm.activity.read', target: 'realm_uid', personal: true },
      schema: {
        tags, summary: 'A user\'s notifications',
        description: 'The user\'s inbox as the customers API\'s GET /notifications answers it: unread first, then newest first, with `unread_count`.'
          + PERSONAL_ROUTE_NOTE,
        params: RealmUserParams, querystring: Type.Object(PageQuery), response: { 200: ref(InboxModel), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total, unread } = await listUserNotifications(acting(ctx, request), request.realm, request.params.id, page);
      return { notifications: items, meta: metaOf(total, page), unread_count: unread };
    });
  };
}

const RealmParams = Type.Object({ realm_uid: Type.String({ description: 'The realm\'s uid' }) });

/** Customers catalog: the signed-in user's inbox. */
export function notificationCustomerRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, NotificationModel, InboxModel, OpenedAllModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/realms/:realm_uid/notifications', {
      schema: {
        tags, summary: 'The signed-in user\'s notifications',
        description: 'Unread first, then newest first; `unread_count` counts every unread notification of the user, not only this page\'s.',
        params: RealmParams, querystring: Type.Object(PageQuery), response: { 200: ref(InboxModel), ...credentialFailures() },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total, unread } = await listInbox(ctx, customerOf(request).user.id, page);
      return { notifications: items, meta: metaOf(total, page), unread_count: unread };
    });

    app.post('/realms/:realm_uid/notifications/:id/open', {
      schema: {
        tags, summary: 'Open a notification',
        description: 'Marks it read and records the business event `notification_opened_log` (flagged as impersonated when an admin '
          + 'impersonates the user). Opening one already read answers it again and records nothing: the event is recorded once per '
          + 'notification, even under concurrent opens.',
        params: NotificationParams,
        response: {
          200: ref(NotificationModel), ...credentialFailures(),
          404: { ...ref(RealmNotFound), description: 'Unknown or inactive realm, or no notification of the signed-in user has this id' },
        },
      },
    }, async (request) => openNotification(ctx, customerOf(request), request.params.id));

    app.post('/realms/:realm_uid/notifications/open_all', {
      schema: {
        tags, summary: 'Mark every notification read',
        description: 'Answers how many unread notifications it marked read. No event is recorded: marking all read is not opening '
          + 'them, so `notification_opened_log` stays a record of notifications the user actually opened.',
        params: RealmParams, response: { 200: ref(OpenedAllModel), ...credentialFailures() },
      },
    }, async (request) => openAllNotifications(ctx, customerOf(request)));
  };
}
