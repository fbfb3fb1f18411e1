import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, metaOf, pageOf, PageQuery } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import type { MultipartFile } from '@fastify/multipart';
import { getAccount } from '../../account/account.js';
import { AppError, badRequest } from '../../http/errors.js';
import { deleteAvatar, setAvatar, type Upload } from '../avatars.js';
import { requireRealm } from '../realms.js';
import { AvatarModel, RealmUidParam, RealmUserInput, RealmUserModel, RealmUserParams } from '../schema.js';
import {
  createRealmUser, deleteRealmUser, endRealmUserSessions, getRealmUser, listRealmUsers, updateRealmUser,
} from '../users.js';

const tags = ['Realm users'];

/**
 * Reads an uploaded part whole; past the size limit the stream is cut and the upload marked truncated.
 * A request body that ends inside the part is the client's fault: 400.
 */
async function readUpload(part: MultipartFile): Promise<Upload> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of part.file) chunks.push(chunk as Buffer);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') throw badRequest('The request body ended inside the file part');
    throw error;
  }
  return { fileName: part.filename, content: Buffer.concat(chunks), truncated: part.file.truncated };
}

export function realmUserRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AvatarModel, RealmUserModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/customers/:realm_uid/users', {
      config: { access: 'realm.users.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'List the users of a realm',
        params: RealmUidParam,
        querystring: Type.Object({
          ...PageQuery,
          query: Type.Optional(Type.String({ description: 'Text contained in the email, username or name' })),
          sort_by: Type.Optional(Type.String({ description: 'id, email, username, first_name, last_name, created_at or updated_at (default)' })),
          order: Type.Optional(Type.String({ description: 'asc or desc (default)' })),
        }),
        response: { 200: listOf('users', ref(RealmUserModel)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const realm = await requireRealm(ctx, request.params.realm_uid);
      const page = pageOf(request.query);
      const { items, total } = await listRealmUsers(ctx, realm, page, request.query);
      return { users: items, meta: metaOf(total, page) };
    });

    app.get('/customers/:realm_uid/users/:id', {
      config: { access: 'realm.users.read', target: 'realm_uid' },
      schema: { tags, summary: 'Show a user of a realm', params: RealmUserParams, response: { 200: ref(RealmUserModel), ...failures(401, 403, 404) } },
    }, async (request) => getRealmUser(ctx, await requireRealm(ctx, request.params.realm_uid), request.params.id));

    app.post('/customers/:realm_uid/users', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: {
        tags, summary: 'Create a user of a realm',
        description: 'Needs an email, unique in the realm regardless of case; a username is unique the same way. The password is '
          + 'optional (a user without one signs in by code). Custom field values are checked by type, and required fields must be given.',
        params: RealmUidParam, body: RealmUserInput, response: { 201: ref(RealmUserModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const realm = await requireRealm(ctx, request.params.realm_uid);
      return reply.code(201).send(await createRealmUser(ctx, realm, request.body));
    });

    app.put('/customers/:realm_uid/users/:id', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: {
        tags, summary: 'Change a user of a realm',
        description: 'Partial: attributes and custom fields left out keep their value; a custom field set to null is cleared. '
          + 'Setting `active` to false ends the user\'s sessions.',
        params: RealmUserParams, body: RealmUserInput, response: { 200: ref(RealmUserModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateRealmUser(ctx, await requireRealm(ctx, request.params.realm_uid), request.params.id, request.body));

    app.delete('/customers/:realm_uid/users/:id', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: { tags, summary: 'Delete a user of a realm', params: RealmUserParams, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await deleteRealmUser(ctx, await requireRealm(ctx, request.params.realm_uid), request.params.id);
      return reply.code(204).send(null);
    });

    app.put('/customers/:realm_uid/users/:id/avatar', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: {
        tags, summary: 'Set a user\'s avatar',
        description: 'multipart/form-data with one part `file`: a jpg, png, gif or webp image among the account\'s allowed '
          + 'extensions, whose content matches its extension, within the account\'s upload size limit (422 otherwise, each reason '
          + 'starting with the file name). The original is served for the small and medium renditions too.',
        consumes: ['multipart/form-data'],
        params: RealmUserParams,
        // Documents the form; the file is read by the handler, so the schema names no type that would refuse it.
        body: { content: { 'multipart/form-data': { schema: { properties: { file: { type: 'string', format: 'binary' } } } } } } as never,
        response: { 200: ref(RealmUserModel), ...failures(401, 403, 404, 413, 415, 422) },
      },
    }, async (request) => {
      const realm = await requireRealm(ctx, request.params.realm_uid);
      const account = await getAccount(ctx);
      if (!request.isMultipart()) throw new AppError(415, ['Send the image as multipart/form-data, in a part named file']);
      const part = await request.file({ limits: { fileSize: account.uploadMaxBytes, files: 1 } });
      const upload = part && part.fieldname === 'file' ? await readUpload(part) : undefined;
      return setAvatar(ctx, realm, request.params.id, upload);
    });

    app.delete('/customers/:realm_uid/users/:id/avatar', {
      config: { access: 'realm.users.write', target: 'realm_uid' },
      schema: { tags, summary: 'Remove a user\'s avatar', params: RealmUserParams, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await deleteAvatar(ctx, await requireRealm(ctx, request.params.realm_uid), request.params.id);
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
      await endRealmUserSessions(ctx, await requireRealm(ctx, request.params.realm_uid), request.params.id);
      return reply.code(204).send(null);
    });
  };
}
