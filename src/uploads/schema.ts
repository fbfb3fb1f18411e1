import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../http/models.js';

export const AttachmentModel = Type.Object({
  id: Id({ description: 'The value of the answer to the file question' }),
  uuid: Type.String({ format: 'uuid', description: 'Deletes it: DELETE /private_upload/answer/{uuid}' }),
  name: Type.String({ description: 'The file name it was uploaded with, for display' }),
  size: Type.Integer({ minimum: 0, description: 'In bytes' }),
  url: Type.String({ description: 'Path that serves the file to its owner only (the customers API credential)' }),
}, { $id: 'Attachment', description: 'A private file of the signed-in user, uploaded to answer a file question (spec 2.12)' });

export type AttachmentBody = Static<typeof AttachmentModel>;

export const RealmParams = Type.Object({ realm_uid: Type.String({ description: 'The realm\'s uid' }) });

export const AttachmentParams = Type.Object({
  ...RealmParams.properties,
  uuid: Type.String({ description: 'The attachment\'s uuid' }),
});

export const AdminAttachmentParams = Type.Object({
  ...RealmParams.properties,
  uuid: Type.String({ description: 'The attachment\'s uuid, or its integer id (the value of a file answer)' }),
});

/** A stored file's bytes, of the type its content was checked to be. */
export const FileContent = {
  description: 'The file, of the media type its content was checked to be at upload',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
} as never;
