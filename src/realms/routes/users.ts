import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { PERSONAL_ROUTE_NOTE } from '../../admin-auth/personal-data.js';
import { ref, useModels } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { listOf, metaOf, pageOf, PageQuery } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { installationAccount } from '../../account/account.js';
import { FILE_FORM_FAILURES, fileForm, readOneFile } from '../../http/multipart.js';
import { deleteAvatar, setAvatar } from '../avatars.js';
import { inviteRealmUser } from '../invitations.js';
import { AvatarModel, RealmUserStatus, InvitationInput, InvitationModel, RealmUidParam, RealmUserInput, RealmUserModel, RealmUserParams, RealmUserSessionParams, SessionListModel, SessionModel } from '../schema.js';
import { endRealmUserSession, listRealmUserSessions } from '../user-sessions.js';

import {
  activateRealmUser, createRealmUser, deleteRealmUser, endRealmUserSessions, getRealmUser, listRealmUsers, REALM_USER_SORTABLE, updateRealmUser,
} from '../users.js';

const tags = ['Realm users'];

export function realmUserRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AvatarModel, RealmUserModel, InvitationModel, SessionModel, SessionListModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/customers/:realm_uid/users', {
      config: { access: 'realm.users.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'List the users of a realm',
        params: RealmUidParam,
        querystring: ListQuery({ searched: 'the email, username or full name', sortable: REALM_USER_SORTABLE, by: 'updated_at', order: 'desc' }, {
          status: Type.Optional(RealmUserStatus),
        }),
        response: { 200: listOf('users', ref(RealmUserModel)), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => {
      const realm = request.realm;
      const page = pageOf(request.query);
      const { items, total } = await listRealmUsers(acting(ctx, request), realm, page, request.query);
      return { users: items, meta: metaOf(total, page) };
    });

    app.get('/customers/:realm_uid/users/:id', {
      config: { access: 'realm.users.read', target: 'realm_uid' },
      schema: { tags, summary: 'Show a user of a realm', params: RealmUserParams, response: { 200: ref(RealmUserModel), ...failures(401, 403, 404) } },
    }, async (request) => getRealmUser(acting(ctx, request), request.realm, request.params.id));

    app.post('/customers/:realm_uid/users', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: {
        tags, summary: 'Create a user of a realm',
        description: 'Needs an email, unique in the realm regardless of case; a username is unique the same way. The password is '
          + 'optional (a user without one signs in by code). Custom field values are checked by type, and required fields must be given.',
        params: RealmUidParam, body: RealmUserInput, response: { 201: ref(RealmUserModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const realm = request.realm;
      return reply.code(201).send(await createRealmUser(acting(ctx, request), realm, request.body));
    });

    app.post('/customers/:realm_uid/users/invitations', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: {
        tags, summary: 'Invite someone to sign up',
        description: 'Mails the address a one-time link to the realm\'s signup page, valid 7 days, with which the account is created '
          + 'with that email, active and signed in, whatever the activation mode (the way in for an `invitation_only` realm). '
          + 'Inviting the address again replaces the earlier link. The link is never answered: only the mail carries it. '
          + '422 when a user of the realm has the address already, 409 when the realm\'s sign-up is `disabled`.',
        params: RealmUidParam, body: InvitationInput, response: { 201: ref(InvitationModel), ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request, reply) => {
      const realm = request.realm;
      return reply.code(201).send(await inviteRealmUser(acting(ctx, request), realm, request.body.email));
    });

    app.put('/customers/:realm_uid/users/:id', {
      config: { access: 'realm.users.write', target: 'realm_uid', personal: true },
      schema: {
        tags, summary: 'Change a user of a realm',
        description: 'Partial: attributes and custom fields left out keep their value; a custom field set to null is cleared. '
          + 'Setting `active` to false ends the user\'s sessions.' + PERSONAL_ROUTE_NOTE,
        params: RealmUserParams, body: RealmUserInput, response: { 200: ref(RealmUserModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateRealmUser(acting(ctx, request), request.realm, request.params.id, request.body));

    app.post('/customers/:realm_uid/users/:id/activate', {
      config: { access: 'realm.users.write', target: 'realm_uid', personal: true },
      schema: {
        tags, summary: 'Activate a user of a realm',
        description: 'Lets an inactive user sign in, such as one who signed up in a realm whose activation mode is `moderated`. '
          + 'A user already active is answered unchanged.' + PERSONAL_ROUTE_NOTE,
        params: RealmUserParams, response: { 200: ref(RealmUserModel), ...failures(401, 403, 404) },
      },
    }, async (request) => activateRealmUser(acting(ctx, request), request.realm, request.params.id));

    app.delete('/customers/:realm_uid/users/:id', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: { tags, summary: 'Delete a user of a realm', params: RealmUserParams, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await deleteRealmUser(acting(ctx, request), request.realm, request.params.id);
      return reply.code(204).send(null);
    });

    app.put('/customers/:realm_uid/users/:id/avatar', {
      config: { access: 'realm.users.write', target: 'realm_uid', personal: true },
      schema: {
        tags, summary: 'Set a user\'s avatar',
        description: 'multipart/form-data with one part `file`: a jpg, png, gif or webp image among the account\'s allowed '
          + 'extensions, whose content matches its extension, within the account\'s upload size limit (422 otherwise, each reason '
          + 'starting with the file name). The original is served for the small and medium renditions too. A form without a '
          + 'boundary or cut short answers 400, one with more than one file or too many parts 413. The image replaced is removed.'
          + PERSONAL_ROUTE_NOTE,
        consumes: ['multipart/form-data'],
        params: RealmUserParams,
        body: fileForm('file'),
        response: { 200: ref(RealmUserModel), ...failures(401, 403, 404, ...FILE_FORM_FAILURES) },
      },
    }, async (request) => {
      const realm = request.realm;
      const account = await installationAccount(ctx);
      const upload = await readOneFile(request, { field: 'file', maxBytes: account.uploadMaxBytes });
      return setAvatar(acting(ctx, request), realm, request.params.id, upload);
    });

    app.delete('/customers/:realm_uid/users/:id/avatar', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: { tags, summary: 'Remove a user\'s avatar', params: RealmUserParams, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await deleteAvatar(acting(ctx, request), request.realm, request.params.id);
      return reply.code(204).send(null);
    });

    app.delete('/customers/:realm_uid/users/:id/sessions', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: {
        tags, summary: 'End every session of a user',
        description: 'The user\'s realm sessions end, and every OAuth access token tied to one of them stops working (401 grant_expired).',
        params: RealmUserParams, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await endRealmUserSessions(acting(ctx, request), request.realm, request.params.id);
      return reply.code(204).send(null);
    });

    app.get('/customers/:realm_uid/users/:id/sessions', {
      config: { access: 'realm.users.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'List a user\'s active sessions',
        description: 'The same list the user sees in the profile API\'s GET /sessions: every realm session neither ended nor expired, '
          + 'most recently used first, with its user agent; `current` is always false here.',
        params: RealmUserParams, querystring: Type.Object(PageQuery), response: { 200: ref(SessionListModel), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listRealmUserSessions(acting(ctx, request), request.realm, request.params.id, page);
      return { sessions: items, meta: metaOf(total, page) };
    });

    app.delete('/customers/:realm_uid/users/:id/sessions/:session_id', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: {
        tags, summary: 'End one session of a user',
        description: 'That browser is signed out and the OAuth access tokens it authorized stop working (401 grant_expired). '
          + 'Another user\'s session, an unknown id, or one already ended or expired answers 404.',
        params: RealmUserSessionParams, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await endRealmUserSession(acting(ctx, request), request.realm, request.params.id, request.params.session_id);
      return reply.code(204).send(null);
    });
  };
}
