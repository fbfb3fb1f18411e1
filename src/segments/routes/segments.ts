import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { keptAnswers } from '../../http/kept-answers.js';
import { legacyNaming, listed, namedListOf, NamingHeaders } from '../../http/legacy-naming.js';
import { metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { AvatarModel, RealmUserModel } from '../../realms/schema.js';
import { ApplyFiltersInput, FiltersInput, MatchesCount, MatchesPreview, SegmentIdParam, SegmentInput, SegmentListQuery, SegmentModel } from '../schema.js';
import {
  applyFilters, countMatches, createSegment, deleteSegment, listSegments, previewMatches, PREVIEWED_USERS, requireSegment, segmentBody, updateSegment,
} from '../segments.js';

const tags = ['Segments'];
const PERSONAL = ' Filters naming a personal attribute (email, username, first_name, last_name, a custom field of type text or paragraph) '
  + 'need `realm.users.read` on the realm too (403 without): counting over them would tell the values.';

/** A page of the segment list as answered, in either naming, once per page listSegments keeps. */
const segmentList = keptAnswers((kept: Awaited<ReturnType<typeof listSegments>>, legacy: boolean, page: number, perPage: number, offset: number) =>
  listed(legacy ? 'targets' : 'segments', kept.items, metaOf(kept.total, { page, perPage, offset }), legacy));

export function segmentRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, SegmentModel, AvatarModel, RealmUserModel, MatchesPreview);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/segments', {
      config: { access: 'segments.read' },
      schema: {
        tags, summary: 'List segments',
        description: 'The segments of the realms the credential\'s roles reach, temporary ones left out. `matches_count` is the last background count, at most five minutes old. '
          + 'With `X-Api-Naming: legacy` the list is `targets` and the pagination envelope `goal`.',
        querystring: SegmentListQuery, headers: NamingHeaders,
        response: { 200: namedListOf('segments', ref(SegmentModel), 'A page of segments', 'targets'), ...failures(401, 403) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      return segmentList(await listSegments(acting(ctx, request), page, request.query), legacyNaming(request), page.page, page.perPage, page.offset);
    });

    app.get('/segments/:id', {
      config: { access: 'segments.read' },
      schema: { tags, summary: 'Show a segment', params: SegmentIdParam, response: { 200: ref(SegmentModel), ...failures(401, 403, 404) } },
    }, async (request) => {
      const { segment, realm } = await requireSegment(acting(ctx, request), request.params.id, 'segments.read');
      return segmentBody(segment, realm.uid);
    });

    app.post('/segments', {
      config: { access: 'segments.manage' },
      schema: {
        tags, summary: 'Create a segment',
        description: 'Needs `name`, `realm_uid` and `filters`; answers the segment with its users counted now.' + PERSONAL,
        body: SegmentInput, response: { 201: ref(SegmentModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createSegment(acting(ctx, request), request.body)));

    app.put('/segments/:id', {
      config: { access: 'segments.manage' },
      schema: {
        tags, summary: 'Change a segment',
        description: 'Partial: attributes left out keep their value. New filters are counted at once. `realm_uid` cannot change.' + PERSONAL,
        params: SegmentIdParam, body: SegmentInput, response: { 200: ref(SegmentModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateSegment(acting(ctx, request), request.params.id, request.body));

    app.delete('/segments/:id', {
      config: { access: 'segments.manage' },
      schema: { tags, summary: 'Delete a segment', params: SegmentIdParam, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await deleteSegment(acting(ctx, request), request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/segments/apply_filters', {
      config: { access: 'segments.manage' },
      schema: {
        tags, summary: 'Create a temporary segment',
        description: 'A segment flagged `temporary`: left out of lists and gone an hour after its creation. Answers it with its users counted now.'
          + PERSONAL,
        body: ApplyFiltersInput, response: { 201: ref(SegmentModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await applyFilters(acting(ctx, request), request.body)));

    app.post('/segments/count_matches', {
      config: { access: 'segments.read' },
      schema: {
        tags, summary: 'Count the users matching filters',
        description: 'How many users of the realm match the filters now. Nothing is stored.' + PERSONAL,
        body: FiltersInput, response: { 200: MatchesCount, ...failures(401, 403, 422) },
      },
    }, async (request) => countMatches(acting(ctx, request), request.body));

    app.post('/segments/preview_matches', {
      config: { access: 'segments.read' },
      schema: {
        tags, summary: 'Count and show the users matching filters',
        description: `The count of count_matches and the first ${PREVIEWED_USERS} matching users (as the realm's user list shows them), `
          + 'for a segment being edited. Nothing is stored. Needs `realm.users.read` on the realm besides `segments.read`. '
          + 'A bad tree is a 422 whose `details[].field` is the path of the bad node (`filters.all[1].value`).',
        body: FiltersInput, response: { 200: ref(MatchesPreview), ...failures(401, 403, 422) },
      },
    }, async (request) => previewMatches(acting(ctx, request), request.body));
  };
}
