import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, metaOf, pageOf, PageQuery } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { PREVIEW_MINUTES, previewLink } from '../preview.js';
import { diffVersions, listVersions, publish, restoreVersion, showVersion } from '../publishing.js';
import { decideReview, listReviews, requestReview, showReview, withdrawReview } from '../reviews.js';
import { cancelScheduled, listScheduled, schedulePublish } from '../schedule.js';
import {
  DecisionInput, DiffModel, DiffQuery, PreviewInput, PreviewModel, PublishInput, ReviewInput, ReviewListQuery, ReviewModel, ScheduledModel, SiteItemParams,
  SiteParam, VersionModel, VersionParams,
} from '../schema.js';

const tags = ['Sites'];
const Scheduled = Type.Object({ scheduled: ref(ScheduledModel) });

export function publishingRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, VersionModel, DiffModel, ReviewModel, ScheduledModel, PreviewModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/sites/:site_uid/publish', {
      config: { access: 'site.publish', target: 'site_uid' },
      schema: {
        tags, summary: 'Publish the drafts',
        description: 'Makes every draft (layouts, snippets, files, pages, menus) an immutable version and serves it; every instance serves it within a second. '
          + 'With `require_review`, `review_request_id` must name an approved request whose drafts have not changed since (409 `ATR_REVIEW_REQUIRED`). '
          + 'Drafts equal to the published version: 409 `ATR_NOTHING_TO_PUBLISH`. With `at` in the future the publish is scheduled (202). '
          + 'Emits the webhook event `site.published`; recorded in the audit log.',
        params: SiteParam, body: PublishInput, response: { 201: ref(VersionModel), 202: Scheduled, ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request, reply) => {
      const { note, review_request_id: reviewRequestId, at } = request.body;
      if (at !== undefined) {
        return reply.code(202).send({ scheduled: await schedulePublish(acting(ctx, request), request.params.site_uid, new Date(at), note, reviewRequestId) });
      }
      return reply.code(201).send(await publish(acting(ctx, request), request.params.site_uid, { note, reviewRequestId }));
    });

    app.get('/sites/:site_uid/scheduled_publishes', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'List scheduled publishes', params: SiteParam, response: { 200: Type.Object({ scheduled_publishes: Type.Array(ref(ScheduledModel)) }), ...failures(401, 403, 404) } },
    }, async (request) => ({ scheduled_publishes: await listScheduled(acting(ctx, request), request.params.site_uid) }));
    app.delete('/sites/:site_uid/scheduled_publishes/:id', {
      config: { access: 'site.publish', target: 'site_uid' },
      schema: { tags, summary: 'Cancel a scheduled publish', params: SiteItemParams, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await cancelScheduled(acting(ctx, request), request.params.site_uid, request.params.id);
      return reply.code(204).send(null);
    });

    app.get('/sites/:site_uid/versions', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'List the versions of a site', description: 'Newest first; `current` marks the one served.', params: SiteParam, querystring: Type.Object(PageQuery), response: { 200: listOf('versions', ref(VersionModel)), ...failures(401, 403, 404) } },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listVersions(acting(ctx, request), request.params.site_uid, page);
      return { versions: items, meta: metaOf(total, page) };
    });
    app.get('/sites/:site_uid/versions/diff', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'Compare two versions', description: 'Each layout, snippet, file, page and menu that differs, with its content before and after.', params: SiteParam, querystring: DiffQuery, response: { 200: ref(DiffModel), ...failures(401, 403, 404, 422) } },
    }, async (request) => diffVersions(acting(ctx, request), request.params.site_uid, request.query.from, request.query.to));
    app.get('/sites/:site_uid/versions/:number', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'Show a version', params: VersionParams, response: { 200: ref(VersionModel), ...failures(401, 403, 404) } },
    }, async (request) => showVersion(acting(ctx, request), request.params.site_uid, request.params.number));
    app.post('/sites/:site_uid/versions/:number/restore', {
      config: { access: 'site.publish', target: 'site_uid' },
      schema: {
        tags, summary: 'Roll back to a version',
        description: 'The drafts become what the version served and are published at once as a new version (`restored_from`). No review is asked: it restores what was published before.',
        params: VersionParams, response: { 201: ref(VersionModel), ...failures(401, 403, 404, 409) },
      },
    }, async (request, reply) => reply.code(201).send(await restoreVersion(acting(ctx, request), request.params.site_uid, request.params.number)));

    app.get('/sites/:site_uid/review_requests', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'List review requests', params: SiteParam, querystring: ReviewListQuery, response: { 200: listOf('review_requests', ref(ReviewModel)), ...failures(401, 403, 404) } },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listReviews(acting(ctx, request), request.params.site_uid, page, request.query.status);
      return { review_requests: items, meta: metaOf(total, page) };
    });
    app.post('/sites/:site_uid/review_requests', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: 'Ask for review', description: 'Of the drafts as they are now (`draft_revision`): a later change needs a new request.', params: SiteParam, body: ReviewInput, response: { 201: ref(ReviewModel), ...failures(401, 403, 404, 422) } },
    }, async (request, reply) => reply.code(201).send(await requestReview(acting(ctx, request), request.params.site_uid, request.body.note)));
    app.get('/sites/:site_uid/review_requests/:id', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'Show a review request', params: SiteItemParams, response: { 200: ref(ReviewModel), ...failures(401, 403, 404) } },
    }, async (request) => showReview(acting(ctx, request), request.params.site_uid, request.params.id));
    for (const [action, decision] of [['approve', 'approved'], ['reject', 'rejected']] as const) {
      app.post(`/sites/:site_uid/review_requests/:id/${action}`, {
        config: { access: 'site.publish', target: 'site_uid' },
        schema: { tags, summary: `${action === 'approve' ? 'Approve' : 'Reject'} a review request`, description: 'Only an open request: 409 `ATR_REVIEW_CLOSED` otherwise.', params: SiteItemParams, body: DecisionInput, response: { 200: ref(ReviewModel), ...failures(401, 403, 404, 409, 422) } },
      }, async (request) => decideReview(acting(ctx, request), request.params.site_uid, request.params.id, decision, request.body?.comment));
    }
    app.post('/sites/:site_uid/review_requests/:id/withdraw', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: 'Withdraw a review request', description: 'Only by the member who asked.', params: SiteItemParams, response: { 200: ref(ReviewModel), ...failures(401, 403, 404, 409) } },
    }, async (request) => withdrawReview(acting(ctx, request), request.params.site_uid, request.params.id));

    app.post('/sites/:site_uid/previews', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: {
        tags, summary: 'Make a preview link', description: `A signed link showing a page of the drafts, valid ${PREVIEW_MINUTES} minutes (410 after).`,
        params: SiteParam, body: PreviewInput, response: { 201: ref(PreviewModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await previewLink(acting(ctx, request), request.params.site_uid, request.body.page_id, request.body.locale)));
  };
}
