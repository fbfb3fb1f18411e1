import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { onlyOf, trimmed } from '../../http/only.js';
import { metaOf, pageOf, PageQuery } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { campaignBody, campaignRecipientCount, createCampaign, deleteCampaign, listCampaigns, requireCampaign, updateCampaign } from '../campaigns.js';
import { cancelDelivery, createDelivery, listDeliveries, resendInDoubt, showDelivery } from '../deliveries.js';
import { listMessageDeliveries } from '../message-deliveries.js';
import { legacyNaming, listed, NamingHeaders, renamed } from '../../http/legacy-naming.js';
import { previewCampaign, previewDraft, sendTest } from '../previews.js';
import {
  CampaignInput, CampaignList, DraftPreviewInput, CampaignListItem, CampaignListQuery, CampaignModel, CampaignParams, CampaignUpdate, DeliveryInput,
  DeliveryList, DeliveryListItem, DeliveryModel, DeliveryParams, MessageDeliveryList, MessageDeliveryModel, MessageDeliveryQuery,
  PreviewInput, PreviewModel, RecipientCountModel, TestInput, TestSentModel,
} from '../schema.js';
import { TEMPLATE_LIMITS } from '../templates.js';

const tags = ['Messaging'];
const LEGACY = 'With `X-Api-Naming: legacy` the segment attributes are named `targets`, `targets_enabled`, `target_list` and the '
  + 'pagination envelope `goal` (spec 9).';
const TEMPLATES = `\`subject\` and \`body\` are Liquid templates (liquidjs) with \`user.first_name\`, \`user.last_name\`, \`user.name\`, `
  + '`user.email`, `user.username`, `user.external_id`, `user.custom_fields.<key>` and, in a mailing, `unsubscribe_url`. A template '
  + 'that does not parse is refused (422 naming the line); so is one that, rendered for a sample user, takes more than '
  + `${TEMPLATE_LIMITS.renderMs} ms, allocates past liquidjs's memory limit or writes more than ${TEMPLATE_LIMITS.output} characters. `
  + 'Includes and layouts read nothing. A mailing\'s body is HTML: values written by `{{ }}` are HTML-escaped.';

/** Admin catalog: campaigns, their deliveries and messages (spec 2.3–2.5, 4.2). */
export function messagingRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, CampaignModel, CampaignListItem, DeliveryModel, DeliveryListItem, MessageDeliveryModel, PreviewModel, TestSentModel, RecipientCountModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/messaging/campaigns', {
      config: { access: 'messaging.read' },
      schema: {
        tags, summary: 'List campaigns',
        description: 'Campaigns of the realms the credential\'s roles reach, most recently changed first unless `sort_by` says otherwise. `type` keeps one type, '
          + '`filtered=true` only campaigns with at least one delivery, `only` trims each item to the attributes named. ' + LEGACY,
        querystring: CampaignListQuery, headers: NamingHeaders, response: { 200: CampaignList, ...failures(401, 403) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const legacy = legacyNaming(request);
      const only = onlyOf(request.query);
      const { items, total } = await listCampaigns(acting(ctx, request), page, request.query);
      // Trimmed after renaming: a legacy client names the attributes it keeps by their legacy names.
      return listed('campaigns', items.map((item) => trimmed(renamed(item, legacy), only)), metaOf(total, page), legacy);
    });

    app.post('/messaging/campaigns', {
      config: { access: 'messaging.send' },
      schema: {
        tags, summary: 'Create a campaign',
        description: `Needs \`realm_uid\`, \`name\`, \`type\`, \`subject\` and \`body\`. ${TEMPLATES} With \`segments_enabled\` it goes to `
          + 'the users of `segment_ids` (segments of the same realm: another realm\'s is a 422), otherwise to every active user of the realm.',
        body: CampaignInput, response: { 201: ref(CampaignModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createCampaign(acting(ctx, request), request.body)));

    app.get('/messaging/campaigns/:id', {
      config: { access: 'messaging.read' },
      schema: { tags, summary: 'Show a campaign', params: CampaignParams, response: { 200: ref(CampaignModel), ...failures(401, 403, 404) } },
    }, async (request) => campaignBody(await requireCampaign(acting(ctx, request), request.params.id, 'messaging.read')));

    app.put('/messaging/campaigns/:id', {
      config: { access: 'messaging.send' },
      schema: {
        tags, summary: 'Change a campaign',
        description: `Partial: attributes left out keep their value; \`segment_ids\` replaces the list. ${TEMPLATES} Deliveries already `
          + 'asked for keep the subject, body and audience they were made with.',
        params: CampaignParams, body: CampaignUpdate, response: { 200: ref(CampaignModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateCampaign(acting(ctx, request), request.params.id, request.body));

    app.delete('/messaging/campaigns/:id', {
      config: { access: 'messaging.send' },
      schema: {
        tags, summary: 'Delete a campaign', description: 'With its deliveries and their messages; a delivery under way stops.',
        params: CampaignParams, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteCampaign(acting(ctx, request), request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/messaging/campaigns/:id/preview', {
      config: { access: 'messaging.read' },
      schema: {
        tags, summary: 'Render a campaign for one user',
        description: 'The subject and body as that user of the campaign\'s realm would get them, and a mailing\'s HTML and text parts exactly as '
          + 'a delivery sends them but for the token of the tracking pixel and unsubscribe link (`preview`). '
          + 'It shows the user\'s data: 403 without `realm.users.read` on the realm besides `messaging.read`. 404 when the realm has no such user; 422 when the template cannot be rendered for this user (past a limit).',
        params: CampaignParams, body: PreviewInput, response: { 200: ref(PreviewModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => previewCampaign(acting(ctx, request), request.params.id, request.body.user_id));

    app.post('/messaging/campaigns/preview', {
      config: { access: 'messaging.read' },
      schema: {
        tags, summary: 'Render an unsaved campaign for one user',
        description: 'The draft\'s subject and body rendered for that user of `realm_uid` by the code that renders a saved campaign, '
          + 'so the answer is what the campaign\'s preview would be once saved. A template that does not parse is a 422 naming the field '
          + 'and the line (`details: [{"field": "body", "messages": ["is not a valid Liquid template: line 3: ..."]}]`); so is one that '
          + 'cannot be rendered for this user. 403 without `messaging.read` and `realm.users.read` on the realm; 404 when the realm has no such user.',
        body: DraftPreviewInput, response: { 200: ref(PreviewModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => previewDraft(acting(ctx, request), request.body));

    app.post('/messaging/campaigns/:id/test', {
      config: { access: 'messaging.send' },
      schema: {
        tags, summary: 'Send one test message',
        description: 'One email, subject prefixed with "[Test]", to the address given: rendered for the realm\'s user with that address '
          + 'if there is one, else for a sample user. Counted nowhere, tracked nowhere.',
        params: CampaignParams, body: TestInput, response: { 200: ref(TestSentModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => sendTest(acting(ctx, request), request.params.id, request.body.email));

    app.get('/messaging/campaigns/:id/recipient_count', {
      config: { access: 'messaging.read' },
      schema: {
        tags, summary: 'Count a campaign\'s recipients',
        description: 'How many users a delivery asked for now would go to: the active users of the realm (or of the campaign\'s segments, '
          + 'when `segments_enabled`) who have not unsubscribed. A delivery counts its audience again when it starts (`reach`).',
        params: CampaignParams, response: { 200: ref(RecipientCountModel), ...failures(401, 403, 404) },
      },
    }, async (request) => campaignRecipientCount(acting(ctx, request), request.params.id));

    app.get('/messaging/campaigns/:id/deliveries', {
      config: { access: 'messaging.read' },
      schema: {
        tags, summary: 'List a campaign\'s deliveries', description: `Newest first. ${LEGACY}`,
        params: CampaignParams, querystring: Type.Object(PageQuery), headers: NamingHeaders,
        response: { 200: DeliveryList, ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listDeliveries(acting(ctx, request), request.params.id, page);
      return listed('deliveries', items, metaOf(total, page), legacyNaming(request));
    });

    app.post('/messaging/campaigns/:id/deliveries', {
      config: { access: 'messaging.send' },
      schema: {
        tags, summary: 'Send a campaign',
        description: 'Makes a delivery, `scheduled` until `starts_at` (default now), when a sender of any server process starts it '
          + '(`sending`), writes its recipients (active users of the audience who have not unsubscribed; `reach` is -1 until they are '
          + 'all written) and sends each one message; then `completed` (`failed` when not one message could be sent). '
          + '`rate_per_second` caps its pace across every process. A message a sender took and never reported (the process stopped) '
          + 'is counted `in_doubt` and not sent again unless asked (resend_in_doubt): no recipient gets two messages of one delivery on their own.',
        params: CampaignParams, body: DeliveryInput, response: { 201: ref(DeliveryModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createDelivery(acting(ctx, request), request.params.id, request.body ?? {})));

    app.get('/messaging/campaigns/:id/deliveries/:delivery_id', {
      config: { access: 'messaging.read' },
      schema: { tags, summary: 'Show a delivery', params: DeliveryParams, response: { 200: ref(DeliveryModel), ...failures(401, 403, 404) } },
    }, async (request) => showDelivery(acting(ctx, request), request.params.id, request.params.delivery_id));

    app.post('/messaging/campaigns/:id/deliveries/:delivery_id/cancel', {
      config: { access: 'messaging.send' },
      schema: {
        tags, summary: 'Cancel a scheduled delivery',
        description: 'Only while it is `scheduled`: of a cancel and a start at the same moment exactly one happens; a delivery that has started answers 409.',
        params: DeliveryParams, response: { 200: ref(DeliveryModel), ...failures(401, 403, 404, 409) },
      },
    }, async (request) => cancelDelivery(acting(ctx, request), request.params.id, request.params.delivery_id));

    app.post('/messaging/campaigns/:id/deliveries/:delivery_id/resend_in_doubt', {
      config: { access: 'messaging.send' },
      schema: {
        tags, summary: 'Send the in-doubt messages again',
        description: 'The messages of the delivery a stopped sender left unreported go out again (the delivery is `sending` until they are done). '
          + 'Those recipients whose first copy did leave get a second one, with the same Message-ID.',
        params: DeliveryParams, response: { 200: ref(DeliveryModel), ...failures(401, 403, 404) },
      },
    }, async (request) => resendInDoubt(acting(ctx, request), request.params.id, request.params.delivery_id));

    app.get('/messaging/message_deliveries', {
      config: { access: 'messaging.read' },
      schema: {
        tags, summary: 'List messages of campaigns',
        description: 'One message of a delivery to one user each, oldest first, of the realms the credential\'s roles reach; `campaign_id` and '
          + '`delivery_id` narrow the list. `type` is `admin.messaging.mail` or `admin.messaging.notification`. A mail\'s `opened` is set '
          + 'when its tracking pixel is fetched: mail clients and privacy proxies that fetch images ahead make it an upper bound. '
          + 'Each names its user (`user_email`): only realms where the credential also holds `realm.users.read` are listed, and a '
          + 'credential holding it on none of them is refused (403). The pagination envelope is `goal` with `X-Api-Naming: legacy`.',
        querystring: MessageDeliveryQuery, headers: NamingHeaders, response: { 200: MessageDeliveryList, ...failures(401, 403, 422) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listMessageDeliveries(acting(ctx, request), page, request.query);
      return listed('message_deliveries', items, metaOf(total, page), legacyNaming(request));
    });
  };
}
