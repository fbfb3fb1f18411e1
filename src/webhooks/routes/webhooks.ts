import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { listDeliveries, retryDelivery, sendTestDelivery, TEST_EVENT_TYPE } from '../deliveries.js';
import { createEndpoint, deleteEndpoint, ENDPOINT_SORTABLE, listEndpoints, rotateSecret, showEndpoint, updateEndpoint } from '../endpoints.js';
import { listEventTypes, type AdminEventTypes } from '../event-types.js';
import {
  DeliveryIdParam, DeliveryListQuery, EventTypeList, WebhookDeliveryModel, WebhookEndpointInput, WebhookEndpointModel,
  WebhookEndpointWithSecret, WebhookIdParam,
} from '../schema.js';

const tags = ['Webhooks'];

/** `adminTypes`: the admin-side event types the modules declare. */
export function webhookRoutes(ctx: Context, adminTypes: AdminEventTypes): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, WebhookEndpointModel, WebhookEndpointWithSecret, WebhookDeliveryModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/webhooks/event_types', {
      config: { access: 'webhooks.read' },
      schema: {
        tags, summary: 'List the event types webhooks can receive',
        description: 'The admin-side types (changes made through the APIs), the built-in business event types, and the custom '
          + 'business types each realm has recorded. `event_types` of an endpoint must name types of this list.',
        response: { 200: EventTypeList, ...failures(401, 403) },
      },
    }, async (request) => ({ event_types: await listEventTypes(acting(ctx, request), adminTypes) }));

    app.get('/webhooks', {
      config: { access: 'webhooks.read' },
      schema: {
        tags, summary: 'List webhook endpoints', description: 'Newest first unless `sort_by` says otherwise. Secrets are never shown.',
        querystring: ListQuery({ searched: 'the URL or description', sortable: ENDPOINT_SORTABLE, by: 'id', order: 'desc' }), response: { 200: listOf('webhooks', ref(WebhookEndpointModel)), ...failures(401, 403) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listEndpoints(acting(ctx, request), page, request.query);
      return { webhooks: items, meta: metaOf(total, page) };
    });

    app.post('/webhooks', {
      config: { access: 'webhooks.manage' },
      schema: {
        tags, summary: 'Create a webhook endpoint',
        description: 'Needs `url` and `event_types`. Events that carry a realm user\'s data (`realm_user.*`, business and custom events) '
          + 'need `realm.users.read` on every realm the endpoint hears from (everywhere for `all`; 403 otherwise), when it is created or changed. The answer carries the signing `secret`, shown this once. Every event is POSTed '
          + 'as `{type, timestamp, data}` with the headers webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks).',
        body: WebhookEndpointInput, response: { 201: ref(WebhookEndpointWithSecret), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createEndpoint(acting(ctx, request), adminTypes, request.body)));

    app.get('/webhooks/:id', {
      config: { access: 'webhooks.read' },
      schema: { tags, summary: 'Show a webhook endpoint', params: WebhookIdParam, response: { 200: ref(WebhookEndpointModel), ...failures(401, 403, 404) } },
    }, async (request) => showEndpoint(acting(ctx, request), request.params.id));

    app.put('/webhooks/:id', {
      config: { access: 'webhooks.manage' },
      schema: {
        tags, summary: 'Change a webhook endpoint',
        description: 'Partial: attributes left out keep their value. `active: true` turns on an endpoint the server turned off and clears `disabled_reason` and `failing_since`.',
        params: WebhookIdParam, body: WebhookEndpointInput, response: { 200: ref(WebhookEndpointModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateEndpoint(acting(ctx, request), adminTypes, request.params.id, request.body));

    app.delete('/webhooks/:id', {
      config: { access: 'webhooks.manage' },
      schema: { tags, summary: 'Delete a webhook endpoint', description: 'Its deliveries and their attempts go with it.', params: WebhookIdParam, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await deleteEndpoint(acting(ctx, request), request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/webhooks/:id/rotate_secret', {
      config: { access: 'webhooks.manage' },
      schema: {
        tags, summary: 'Rotate a webhook endpoint\'s secret',
        description: 'Answers the new secret, shown this once. For 24 hours the previous secret signs too: webhook-signature then holds two space-separated `v1,` signatures.',
        params: WebhookIdParam, response: { 200: ref(WebhookEndpointWithSecret), ...failures(401, 403, 404) },
      },
    }, async (request) => rotateSecret(acting(ctx, request), request.params.id));

    app.post('/webhooks/:id/test', {
      config: { access: 'webhooks.manage' },
      schema: {
        tags, summary: 'Send a test event to a webhook endpoint',
        description: `Puts a \`${TEST_EVENT_TYPE}\` event for this endpoint only in the outbox, whatever types it subscribes to: signed, `
          + 'retried and listed among its deliveries like any event. Answers the delivery (202). 409 when the endpoint is not active.',
        params: WebhookIdParam, response: { 202: ref(WebhookDeliveryModel), ...failures(401, 403, 404, 409) },
      },
    }, async (request, reply) => reply.code(202).send(await sendTestDelivery(acting(ctx, request), request.params.id)));

    app.get('/webhooks/:id/deliveries', {
      config: { access: 'webhooks.read' },
      schema: {
        tags, summary: 'List a webhook endpoint\'s deliveries',
        description: 'Newest first, each with its attempts (outcome, answer code, duration) and its next try.',
        params: WebhookIdParam, querystring: DeliveryListQuery,
        response: { 200: listOf('deliveries', ref(WebhookDeliveryModel)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listDeliveries(acting(ctx, request), request.params.id, page, request.query.status);
      return { deliveries: items, meta: metaOf(total, page) };
    });

    app.post('/webhooks/deliveries/:id/retry', {
      config: { access: 'webhooks.manage' },
      schema: {
        tags, summary: 'Resend a webhook delivery',
        description: 'Sends it again as soon as a sender is free, with the same webhook-id, whatever its status. A delivery that had '
          + 'failed gets one more attempt; a pending one keeps its schedule. 409 when its endpoint is not active, or while it is being sent.',
        params: DeliveryIdParam, response: { 200: ref(WebhookDeliveryModel), ...failures(401, 403, 404, 409) },
      },
    }, async (request) => retryDelivery(acting(ctx, request), request.params.id));
  };
}
