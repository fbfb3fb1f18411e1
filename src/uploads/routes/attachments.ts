import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { customerOf } from '../../customers/credential.js';
import { credentialFailures, RealmNotFound } from '../../customers/schema.js';
import { attachmentNotFound, notFound } from '../../errors/index.js';
import { ref, useModels } from '../../http/models.js';
import { FILE_FORM_FAILURES, fileForm, readFileForm } from '../../http/multipart.js';
import { failures, NoContent } from '../../http/responses.js';
import { sendStoredObject } from '../../http/stored-object.js';
import { attachmentFile, createAttachment, deleteAttachment, discardFile, readAttachment, receiveFile, uploadLimits, type AttachmentFile } from '../attachments.js';
import { AdminAttachmentParams, AttachmentModel, AttachmentParams, FileContent, RealmParams } from '../schema.js';

const tags = ['Attachments'];

/** Private files are never kept by a cache: a deleted one must be gone for everyone at once. */
function sendAttachment(reply: FastifyReply, { attachment, object, inline }: AttachmentFile): FastifyReply {
  return sendStoredObject(reply, object, {
    contentType: attachment.contentType, cacheControl: 'private, no-store', download: { fileName: attachment.name, inline },
  });
}

const SERVED = 'Served with `Content-Disposition: attachment` (`inline` for images), `X-Content-Type-Options: nosniff` and a '
  + 'sandboxing Content-Security-Policy, as the media type its content was checked to be.';

/** Customers catalog: the signed-in user's private files (spec 2.12, 4.3 rule 4). */
export function attachmentCustomerRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AttachmentModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const notFound = (what: string) => ({ ...ref(RealmNotFound), description: `Unknown or inactive realm, or ${what}` });

    app.post('/realms/:realm_uid/private_upload/answer', {
      schema: {
        tags, summary: 'Upload a private file',
        description: 'multipart/form-data: `file` (required) and `question_id` (optional: the id of a file question of one of the '
          + 'realm\'s originations, 404 otherwise). The file is stored as the signed-in user\'s own; its `id` is the answer to the '
          + 'file question, its `uuid` deletes it, its `url` serves it to the user only. 422 `{"errors": [...]}`, one text per '
          + 'reason, each starting with the file name: no file, an extension the account does not allow (or whose content cannot '
          + 'be checked: pdf, jpg, png, gif, webp, doc, docx, xls, xlsx, ppt, pptx, odt, ods, odp, rtf, txt, csv), content that is not '
          + 'what the extension says (by its magic bytes; txt and csv must be UTF-8 text without markup; an image or a document '
          + 'that is also a page is refused), a file larger than the account\'s limit (it is cut there, never held whole). A form '
          + 'without a boundary or cut short answers 400, one with more than one file or too many parts 413; nothing is kept.',
        consumes: ['multipart/form-data'],
        params: RealmParams,
        body: fileForm('file'),
        response: {
          200: ref(AttachmentModel), ...credentialFailures(), ...failures(...FILE_FORM_FAILURES),
          404: notFound('`question_id` names no file question of the realm'),
        },
      },
    }, async (request) => {
      const customer = customerOf(request);
      const limits = await uploadLimits(ctx);
      const form = await readFileForm(request, {
        field: 'file', maxBytes: limits.maxBytes,
        receive: (file) => receiveFile(ctx, file, limits),
        discard: (file) => discardFile(ctx, file),
      });
      return createAttachment(ctx, customer, form.file, form.fields.question_id);
    });

    app.get('/realms/:realm_uid/private_upload/answer/:uuid', {
      schema: {
        tags, summary: 'Read one of the user\'s files',
        description: `The \`url\` of an attachment: only its owner reads it (another user's or an unknown uuid: 404). ${SERVED}`,
        params: AttachmentParams, response: { 200: FileContent, ...credentialFailures(), 404: notFound('no file of the user has this uuid') },
      },
    }, async (request, reply) => {
      const { realm, user } = customerOf(request);
      const file = await attachmentFile(ctx, request.params.uuid, { realmId: realm.id, userId: user.id });
      if (!file) throw attachmentNotFound();
      return sendAttachment(reply, file);
    });

    app.delete('/realms/:realm_uid/private_upload/answer/:uuid', {
      schema: {
        tags, summary: 'Delete one of the user\'s files',
        description: 'Removes the record and the stored file at once, for good; an answer that used it is left without a file. '
          + 'Answers 200 with an empty body. Another user\'s or an unknown uuid: 404.',
        params: AttachmentParams, response: { 200: { ...NoContent, description: 'Deleted: the body is empty' }, ...credentialFailures(), 404: notFound('no file of the user has this uuid') },
      },
    }, async (request, reply) => {
      await deleteAttachment(ctx, customerOf(request), request.params.uuid);
      // No payload at all: spec 4.3 answers an empty body, not the JSON text `null`.
      return reply.code(200).send(undefined as never);
    });
  };
}

/** Admin catalog: reviewers read the files of a realm's users. */
export function attachmentAdminRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/customers/:realm_uid/attachments/:uuid', {
      config: { access: 'realm.originations.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'Read a file a user of the realm uploaded',
        description: `Any attachment of the realm's users, by its uuid or by its integer id (the value of a file answer, as submissions show it). ${SERVED}`,
        params: AdminAttachmentParams, response: { 200: FileContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      const file = await readAttachment(acting(ctx, request), request.realm, request.params.uuid);
      if (!file) throw notFound('Attachment');
      return sendAttachment(reply, file);
    });
  };
}
