import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { notFound } from '../../errors/index.js';
import { ref, useModels } from '../../http/models.js';
import { FILE_FORM_FAILURES, fileForm, readFileForm } from '../../http/multipart.js';
import { onlyOf, trimmed } from '../../http/only.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { PUBLIC_IMMUTABLE, sendStoredObject } from '../../http/stored-object.js';
import { discardFile, receiveFile, uploadLimits } from '../../uploads/attachments.js';
import { FileContent } from '../../uploads/schema.js';
import { AssetFileParams, AssetListItem, AssetListQuery, AssetModel, AssetParams } from '../assets/schema.js';
import { ASSET_FOLDER, createAsset, deleteAsset, listAssets, readAssetFile, showAsset } from '../assets/assets.js';
import { SpaceUidParam } from '../schema.js';
import { requireSpace } from '../spaces.js';

const tags = ['Content'];
const ASSETS = '/content/spaces/:space_uid/assets';

/** Admin catalog: the images and files of a space. */
export function assetRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AssetModel, AssetListItem);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.post(ASSETS, {
      config: { access: 'content.write', target: 'space_uid' },
      schema: {
        tags, summary: 'Upload an asset',
        description: 'multipart/form-data: `file` (required) and `title` (optional, at most 255 characters). Answers the asset with its '
          + 'public `url`. 422 `{"errors": [...]}`, one text per reason, each starting with the file name: no file, an extension the '
          + 'account does not allow or whose content cannot be checked (jpg, png, gif, webp, pdf, office documents, rtf, txt, csv: '
          + 'never HTML or SVG), content that is not what the extension says (magic bytes), a file larger than the account\'s upload '
          + 'limit (it is cut there, never held whole). A form without a boundary or cut short: 400; more than one file: 413; nothing is kept.',
        consumes: ['multipart/form-data'],
        params: SpaceUidParam, body: fileForm('file'),
        response: { 201: ref(AssetModel), ...failures(401, 403, 404, ...FILE_FORM_FAILURES) },
      },
    }, async (request, reply) => {
      const { space } = request;
      const limits = await uploadLimits(ctx);
      const form = await readFileForm(request, {
        field: 'file', maxBytes: limits.maxBytes,
        receive: (file) => receiveFile(ctx, file, limits, ASSET_FOLDER),
        discard: (file) => discardFile(ctx, file),
      });
      return reply.code(201).send(await createAsset(acting(ctx, request), space, form.file, form.fields.title));
    });

    app.get(ASSETS, {
      config: { access: 'content.read', target: 'space_uid' },
      schema: {
        tags, summary: 'List the assets of a space', description: '`only` trims each item to the attributes named. Default order `updated_at desc`.',
        params: SpaceUidParam, querystring: AssetListQuery,
        response: { 200: listOf('assets', ref(AssetListItem)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const { space } = request;
      const page = pageOf(request.query);
      const only = onlyOf(request.query);
      const { items, total } = await listAssets(acting(ctx, request), space, page, request.query);
      return { assets: items.map((item) => trimmed(item, only)), meta: metaOf(total, page) };
    });

    app.get(`${ASSETS}/:uuid`, {
      config: { access: 'content.read', target: 'space_uid' },
      schema: { tags, summary: 'Show an asset', params: AssetParams, response: { 200: ref(AssetModel), ...failures(401, 403, 404) } },
    }, async (request) => showAsset(acting(ctx, request), request.space, request.params.uuid));

    app.delete(`${ASSETS}/:uuid`, {
      config: { access: 'content.write', target: 'space_uid' },
      schema: {
        tags, summary: 'Delete an asset',
        description: 'Removes the asset and its file at once: its URL answers 404 from now on. Entries that refer to it keep the reference.',
        params: AssetParams, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteAsset(acting(ctx, request), request.space, request.params.uuid);
      return reply.code(204).send(null);
    });
  };
}

/** Content catalog: an asset's public URL. */
export function assetFileRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/spaces/:space_uid/assets/:uuid/:file_name', {
      schema: {
        tags: ['Assets'], summary: 'Download an asset', security: [],
        description: 'The `url` of an asset: its file, as the media type its content was checked to be at upload, with '
          + '`Cache-Control: public, max-age=31536000, immutable` (an asset never changes at its URL), `X-Content-Type-Options: nosniff`, '
          + 'a sandboxing Content-Security-Policy and `Content-Disposition` inline for images, attachment for every other file. No credential needed.',
        params: AssetFileParams, response: { 200: FileContent, ...failures(404) },
      },
    }, async (request, reply) => {
      const space = await requireSpace(ctx, request.params.space_uid);
      const file = await readAssetFile(ctx, space, request.params.uuid, request.params.file_name);
      if (!file) throw notFound('Asset');
      return sendStoredObject(reply, file.object, {
        contentType: file.asset.contentType, cacheControl: PUBLIC_IMMUTABLE, download: { fileName: file.asset.fileName, inline: file.inline },
      });
    });
  };
}
