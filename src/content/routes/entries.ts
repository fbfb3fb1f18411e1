import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { onlyOf, trimmed } from '../../http/only.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { lockOverrideOf, OVERRIDE_DESCRIPTION } from '../../locks/override.js';
import { failures, NoContent } from '../../http/responses.js';
import { createEntry, deleteEntry, listEntries, saveDraft, showEntry } from '../entries/entries.js';
import { requireEntryScope, type ContentSpace } from '../entries/scope.js';
import { AdminEntryListItem, AdminEntryModel, EntryInput, EntryListQuery, EntryParams, EntryUuidParams, LocaleInput, ScheduleInput, VersionQuery } from '../entries/schema.js';
import { ENTRY_MODELS } from '../entries/view.js';
import { publishEntry, scheduleEntry, unpublishEntry } from '../entries/publishing.js';

const tags = ['Content'];
const ENTRIES = '/content/spaces/:space_uid/types/:type_uid/entries';
const ENTRY = `${ENTRIES}/:uuid`;

/** A body that may be left out entirely reads as `{}`. */
async function emptyBodyAllowed(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

const entryShown = ref(AdminEntryModel);

export function entryRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, ...ENTRY_MODELS, AdminEntryModel, AdminEntryListItem);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const scopeOf = (request: { space: ContentSpace; params: { type_uid: string } }) => requireEntryScope(ctx, request.space, request.params.type_uid);

    app.get(ENTRIES, {
      config: { access: 'content.read', target: 'space_uid' },
      schema: {
        tags, summary: 'List entries',
        description: 'The drafts (or, with `version=published`, the published versions) of the type\'s entries, one item per locale '
          + 'unless `locale` narrows the list. Default order `updated_at desc`. `only` trims each item to the attributes named.',
        params: EntryParams, querystring: EntryListQuery,
        response: { 200: listOf('entries', ref(AdminEntryListItem)), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const only = onlyOf(request.query);
      const { items, total } = await listEntries(acting(ctx, request), await scopeOf(request), page, request.query);
      return { entries: items.map((item) => trimmed(item, only)), meta: metaOf(total, page) };
    });

    app.post(ENTRIES, {
      config: { access: 'content.write', target: 'space_uid' },
      schema: {
        tags, summary: 'Create an entry',
        description: 'A new entry with its draft in `locale` (default: the space\'s default locale). `name` is required; `fields` are '
          + 'checked against the content type (422 naming each bad field, unknown names included); a slug taken in the type and locale: 422.',
        params: EntryParams, body: EntryInput, response: { 201: entryShown, ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createEntry(acting(ctx, request), await scopeOf(request), request.body)));

    app.get(ENTRY, {
      config: { access: 'content.read', target: 'space_uid' },
      schema: {
        tags, summary: 'Show an entry',
        description: 'One locale of the entry, its draft (default) or its published version (`version=published`). 404 when it has none.',
        params: EntryUuidParams, querystring: VersionQuery, response: { 200: entryShown, ...failures(401, 403, 404, 422) },
      },
    }, async (request) => showEntry(acting(ctx, request), await scopeOf(request), request.params.uuid, request.query));

    app.put(ENTRY, {
      config: { access: 'content.write', target: 'space_uid' },
      schema: {
        tags, summary: 'Save a draft',
        description: 'Partial: attributes and fields left out keep their value. Saves the draft of `locale`; a locale the entry has no '
          + 'draft in yet gets one (a new locale version, started from the default locale\'s draft). Fields that are not localized, and '
          + '`private` with `segment_uuids`, are written to every locale\'s draft. What is published does not change until it is published again. '
          + OVERRIDE_DESCRIPTION,
        params: EntryUuidParams, body: EntryInput, response: { 200: entryShown, ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request) => saveDraft(acting(ctx, request), await scopeOf(request), request.params.uuid, request.body, lockOverrideOf(request)));

    app.delete(ENTRY, {
      config: { access: 'content.write', target: 'space_uid' },
      schema: {
        tags, summary: 'Delete an entry',
        description: 'The entry in every locale, drafts and published versions. A published entry is deleted only by a role that may publish '
          + `(403 otherwise). ${OVERRIDE_DESCRIPTION}`,
        params: EntryUuidParams, response: { 204: NoContent, ...failures(401, 403, 404, 409) },
      },
    }, async (request, reply) => {
      await deleteEntry(acting(ctx, request), await scopeOf(request), request.params.uuid, lockOverrideOf(request));
      return reply.code(204).send(null);
    });

    app.post(`${ENTRY}/publish`, {
      preValidation: emptyBodyAllowed,
      config: { access: 'content.publish', target: 'space_uid' },
      schema: {
        tags, summary: 'Publish an entry',
        description: 'Copies the draft of every locale (or of `locale` only) to its published version, which the content API serves, with '
          + '`published_at` now. Publishing every locale ends a scheduled publish. A draft missing a required field, or a slug another '
          + 'published entry holds in the locale: 422. Answers the published version of `locale` (default: the default locale). The body may be left out. '
          + OVERRIDE_DESCRIPTION,
        params: EntryUuidParams, body: LocaleInput, response: { 200: entryShown, ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request) => publishEntry(acting(ctx, request), await scopeOf(request), request.params.uuid, request.body, lockOverrideOf(request)));

    app.post(`${ENTRY}/unpublish`, {
      preValidation: emptyBodyAllowed,
      config: { access: 'content.publish', target: 'space_uid' },
      schema: {
        tags, summary: 'Unpublish an entry',
        description: 'Removes the published version of every locale (or of `locale` only): the content API stops serving it at once; the '
          + 'drafts stay, with `unpublished_at` now. Unpublishing every locale ends a scheduled unpublish. 409 when nothing is published. '
          + `Answers the draft. The body may be left out. ${OVERRIDE_DESCRIPTION}`,
        params: EntryUuidParams, body: LocaleInput, response: { 200: entryShown, ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request) => unpublishEntry(acting(ctx, request), await scopeOf(request), request.params.uuid, request.body, lockOverrideOf(request)));

    app.put(`${ENTRY}/schedule`, {
      config: { access: 'content.publish', target: 'space_uid' },
      schema: {
        tags, summary: 'Schedule publishing',
        description: '`publish_at`: when the drafts of every locale are published; `unpublish_at`: when every locale is unpublished. '
          + 'Each must be in the future, the unpublish after the publish; null cancels, left out keeps. A background job runs them '
          + 'within a minute of their moment. Answers the draft with its schedule.',
        params: EntryUuidParams, body: ScheduleInput, response: { 200: entryShown, ...failures(401, 403, 404, 422) },
      },
    }, async (request) => scheduleEntry(acting(ctx, request), await scopeOf(request), request.params.uuid, request.body));
  };
}
