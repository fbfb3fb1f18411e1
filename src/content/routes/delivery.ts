import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { ifNoneMatchHits } from '../../http/etag.js';
import { Meta } from '../../http/pagination.js';
import { customerOf } from '../../customers/credential.js';
import { credentialFailures } from '../../customers/schema.js';
import { RealmUidParam } from '../../realms/schema.js';
import { listEntries, showEntry, type Delivered } from '../delivery/delivery.js';
import { QueryProblems } from '../delivery/query.js';
import {
  contentFailures, DeliveredEntryModel, DeliveredListModel, DeliveryTokenErrorModel, DeliveryTokenModel, EntriesParams, EntriesQuery,
  EntryParams, EntryQuery, QueryErrorModel,
} from '../delivery/schema.js';
import { issueDeliveryToken, readerOf } from '../delivery/token.js';

const tags = ['Entries'];
const NotModified = Type.Null({ description: 'Not modified: the entity matching If-None-Match is still current (ETag header, no body)' });

const CACHING = 'Answers carry a strong ETag (a hash of the body) and `Cache-Control: public, no-cache` (`private, no-cache` when a '
  + 'delivery token was sent: what it shows is the token holder\'s, never kept by a shared cache); a request whose '
  + '`If-None-Match` holds it gets 304 without a body. Private entries are shown only with a delivery token (header '
  + '`Delivery-Token` or query `delivery_token`, from the customers API) whose segments include one of the entry\'s.';

/** A request whose query the schema refused (a parameter given twice) answers like any other query problem. */
function refuseInvalidQuery(request: FastifyRequest): void {
  if (!request.validationError) return;
  const problems = new QueryProblems();
  for (const item of request.validationError.validation ?? []) {
    problems.add(item.instancePath.replace(/^\//, '') || 'query', 'must be given once');
  }
  throw problems.error();
}

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers['delivery-token'];
  if (typeof header === 'string') return header;
  const query = (request.query as { delivery_token?: unknown }).delivery_token;
  return typeof query === 'string' ? query : undefined;
}

function send(request: FastifyRequest, reply: FastifyReply, answer: Delivered): FastifyReply {
  const cacheControl = tokenOf(request) ? 'private, no-cache' : 'public, no-cache';
  reply.header('etag', answer.etag).header('cache-control', cacheControl).header('vary', 'Delivery-Token');
  if (ifNoneMatchHits(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

/** The public content delivery API (content catalog). */
export function deliveryRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, Meta, DeliveredEntryModel, DeliveredListModel, QueryErrorModel, DeliveryTokenErrorModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const path = '/spaces/:space_uid/types/:type_uid/entries';

    app.get(path, {
      attachValidation: true,
      schema: {
        tags, summary: 'List published entries of a content type',
        description: 'Filters: `meta.tags=x`, `meta.tags[in][]=a&meta.tags[in][]=b`, `meta.tags[nin][]`, `meta.tags[has][]` (all of them), '
          + '`meta.category=path` (the path and every path below it: `news` matches `news/sports`), `meta.name`, `meta.slug`, `meta.uuid`, '
          + '`meta.created_at[lt]=...` and the other meta dates (a date YYYY-MM-DD means midnight UTC), and `fields.<name>=v` with '
          + '`[gt] [lt] [gte] [lte] [ne] [in][] [nin][] [has][] [search] [exists]`, each value cast to the field\'s type '
          + '(numbers compare as numbers, dates as dates YYYY-MM-DD, booleans as true/false). An entry without the value matches no '
          + 'comparison on it (`[ne]` included); `[exists]=false` finds it. `locale`, `fallback_locale`, `fields=<JSONPath>`, '
          + `\`include=1|2\`, \`sort_by\`, \`order\`, \`page\`, \`per_page\` (at most 100). ${CACHING}`,
        params: EntriesParams, querystring: EntriesQuery,
        response: { 200: ref(DeliveredListModel), 304: NotModified, ...contentFailures },
      },
    }, async (request, reply) => {
      refuseInvalidQuery(request);
      const reader = await readerOf(ctx, tokenOf(request));
      return send(request, reply, await listEntries(ctx, request.params.space_uid, request.params.type_uid, request.query, reader));
    });

    app.get(`${path}/:uuid`, {
      attachValidation: true,
      schema: {
        tags, summary: 'Show one published entry',
        description: `Takes \`locale\`, \`fallback_locale\`, \`fields=<JSONPath>\` and \`include\` as the list does. ${CACHING}`,
        params: EntryParams, querystring: EntryQuery,
        response: { 200: ref(DeliveredEntryModel), 304: NotModified, ...contentFailures },
      },
    }, async (request, reply) => {
      refuseInvalidQuery(request);
      const reader = await readerOf(ctx, tokenOf(request));
      const { space_uid: space, type_uid: type, uuid } = request.params;
      return send(request, reply, await showEntry(ctx, space, type, uuid, request.query, reader));
    });
  };
}

/** Customers API: the signed-in user's delivery token. */
export function deliveryTokenRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, DeliveryTokenModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/realms/:realm_uid/delivery_token', {
      schema: {
        tags: ['Content'], summary: 'A delivery token for the signed-in user\'s private content entries',
        description: 'A JWT (HS256) valid one hour, carrying the realm uid and the uuids of the segments the user matches now. The content '
          + 'API shows a private entry to a token whose segments include one of the entry\'s; an expired or forged token is refused there (401).',
        params: RealmUidParam, response: { 200: ref(DeliveryTokenModel), ...credentialFailures() },
      },
    }, async (request) => issueDeliveryToken(ctx, customerOf(request)));
  };
}
