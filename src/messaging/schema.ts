import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Id, ref, Nullable } from '../http/models.js';
import { OnlyQuery } from '../http/only.js';
import { namedListOf } from '../http/legacy-naming.js';
import { ListQuery } from '../http/list-query.js';
import { PageQuery } from '../http/pagination.js';
import { TEMPLATE_LIMITS } from './templates.js';

export const CAMPAIGN_TYPES = ['mailing', 'notification'] as const;
export const DELIVERY_STATUSES = ['scheduled', 'sending', 'completed', 'failed', 'canceled'] as const;
export const MESSAGE_STATUSES = ['pending', 'sending', 'sent', 'failed', 'in_doubt'] as const;
export const NAME_MAX = 255;
export const SEGMENTS_MAX = 50;
export const RATE_MAX = 100_000;

const SegmentRefModel = Type.Object({ id: Id(), name: Type.String() });

const campaignFields = {
  id: Id(),
  uuid: Type.String({ format: 'uuid' }),
  realm_uid: Type.String(),
  name: Type.String(),
  type: Type.Union(CAMPAIGN_TYPES.map((t) => Type.Literal(t))),
  subject: Type.String({ description: 'A Liquid template (plain text)' }),
  body: Type.String({ description: 'A Liquid template: HTML for a mailing (values written by {{ }} are HTML-escaped), plain text for a notification' }),
  sent_count: Type.Integer({ description: 'Messages sent by every delivery of the campaign' }),
  last_sent: Nullable(DateTime, 'When the latest delivery that started began; null when never sent'),
  created_at: DateTime,
  updated_at: DateTime,
};

const LAYOUT_NOTE = 'A mailing\'s HTML goes inside the realm\'s `campaign_layout` email template (its override, else the account\'s, '
  + 'else the shipped one), in each recipient\'s language, as it is when a delivery is asked for; the layout\'s CSS is inlined into its own markup. '
  + 'Only for mailings (422 for a notification); 422 when the layout cannot be rendered or does not write `{{ content }}` once.';

export const CampaignModel = Type.Object({
  ...campaignFields,
  segments_enabled: Type.Boolean({ description: 'Sent to the users of `segments`; otherwise to the whole realm' }),
  segments: Type.Array(SegmentRefModel),
  use_layout: Type.Boolean({ description: LAYOUT_NOTE }),
  segment_list: Type.String({ description: 'The segments\' names joined by ", ", or "--" when none' }),
}, { $id: 'Campaign', description: 'A mailing or notification campaign of a realm (spec 2.3)' });

/**
 * An element of GET /campaigns: every attribute unless `only` names some, with the legacy names
 * (`targets`, `targets_enabled`, `target_list`) when the request carries `X-Api-Naming: legacy`.
 */
export const CampaignListItem = Type.Partial(Type.Object({
  ...CampaignModel.properties,
  targets_enabled: Type.Boolean(),
  targets: Type.Array(SegmentRefModel),
  target_list: Type.String(),
}), { $id: 'CampaignListItem', description: 'A campaign in a list: trimmed to the attributes `only` names; legacy naming renames the segment attributes' });

const campaignInputFields = {
  name: Type.String({ maxLength: NAME_MAX * 4, description: `Required; at most ${NAME_MAX} characters` }),
  type: Type.Union(CAMPAIGN_TYPES.map((t) => Type.Literal(t)), { description: '`mailing` (email) or `notification` (the realm user\'s inbox)' }),
  subject: Type.String({ description: `A Liquid template, at most ${TEMPLATE_LIMITS.subject} characters` }),
  body: Type.String({ description: `A Liquid template, at most ${TEMPLATE_LIMITS.body} characters` }),
  segments_enabled: Type.Boolean({ description: 'Default false: the whole realm' }),
  segment_ids: Type.Array(Id(), { maxItems: SEGMENTS_MAX, description: `Segments of the same realm, at most ${SEGMENTS_MAX}` }),
  use_layout: Type.Boolean({ description: `Default false. ${LAYOUT_NOTE}` }),
};

export const CampaignInput = Type.Object({
  realm_uid: Type.String({ maxLength: 200 }),
  ...campaignInputFields,
  segments_enabled: Type.Optional(campaignInputFields.segments_enabled),
  segment_ids: Type.Optional(campaignInputFields.segment_ids),
  use_layout: Type.Optional(campaignInputFields.use_layout),
}, { additionalProperties: false });

export const CampaignUpdate = Type.Partial(Type.Object(campaignInputFields), { additionalProperties: false });
export type CampaignChanges = Static<typeof CampaignUpdate>;

export const CampaignListQuery = ListQuery({ searched: 'the name or subject', sortable: ['name', 'type', 'created_at', 'updated_at'], by: 'updated_at', order: 'desc' }, {
  type: Type.Optional(Type.String({ description: '`mailing` or `notification`; anything else lists none' })),
  filtered: Type.Optional(Type.String({ description: '`true` (or `1`): only campaigns that have at least one delivery' })),
  ...OnlyQuery,
});

export const CampaignList = namedListOf('campaigns', ref(CampaignListItem), 'A page of campaigns');

export const CampaignParams = Type.Object({ id: Id({ description: 'The campaign\'s id' }) });
export const DeliveryParams = Type.Object({ id: Id({ description: 'The campaign\'s id' }), delivery_id: Id({ description: 'The delivery\'s id' }) });

export const PreviewInput = Type.Object({ user_id: Id({ description: 'A user of the campaign\'s realm' }) }, { additionalProperties: false });
export const DraftPreviewInput = Type.Object({
  realm_uid: Type.String({ maxLength: 200, description: 'The realm the draft is for' }),
  type: campaignInputFields.type,
  subject: campaignInputFields.subject,
  body: campaignInputFields.body,
  use_layout: Type.Optional(campaignInputFields.use_layout),
  user_id: Id({ description: 'A user of that realm' }),
}, { additionalProperties: false });
export const PreviewModel = Type.Object({
  subject: Type.String(),
  body: Type.String({ description: 'The rendered body (a mailing\'s inside the realm\'s layout when it uses it), without the unsubscribe link and tracking pixel' }),
  html: Nullable(Type.String(),
    'A mailing\'s HTML part exactly as a delivery sends it to this user, but for the token of the tracking pixel and unsubscribe link '
      + '(`preview` here, each message\'s own in a delivery); null for a notification'),
  text: Type.String({ description: 'The text part as sent (likewise); a notification\'s body' }),
}, { $id: 'CampaignPreview', description: 'The campaign\'s subject and body rendered for one user, and the parts of the message it sends' });

export const TestInput = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320, description: 'Where the one test message goes' }),
}, { additionalProperties: false });
export const TestSentModel = Type.Object({ sent_to: Type.String() }, { $id: 'CampaignTestSent', description: 'The address the test message went to' });

export const RecipientCountModel = Type.Object({
  recipients: Type.Integer({ minimum: 0, description: 'Active users of the audience who have not unsubscribed, as of now' }),
}, { $id: 'CampaignRecipientCount', description: 'How many users a delivery made now would go to' });

const deliveryFields = {
  id: Id(),
  uuid: Type.String({ format: 'uuid' }),
  campaign_id: Id(),
  starts_at: DateTime,
  ends_at: Nullable(DateTime, 'When it ended (completed, failed or canceled); null before'),
  sent_count: Type.Integer(),
  failed_count: Type.Integer({ description: 'Messages that failed after their retries (each with its reason in message_deliveries)' }),
  in_doubt_count: Type.Integer({ description: 'Messages a worker took and never reported (it stopped): perhaps sent, never sent again unless resent explicitly' }),
  reach: Type.Integer({ description: 'How many users were selected; -1 until known' }),
  status: Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s))),
  rate_per_second: Nullable(Type.Integer(), 'Messages per second; null for as fast as the mail server takes them'),
};

export const DeliveryModel = Type.Object({
  ...deliveryFields,
  segment_list: Type.String(),
}, { $id: 'CampaignDelivery', description: 'One run of a campaign (spec 2.4)' });

export const DeliveryListItem = Type.Object({
  ...deliveryFields,
  segment_list: Type.Optional(Type.String()),
  target_list: Type.Optional(Type.String({ description: '`segment_list` under the legacy naming' })),
}, { $id: 'CampaignDeliveryListItem', description: 'A delivery in a list (`target_list` in place of `segment_list` under the legacy naming)' });

export const DeliveryList = namedListOf('deliveries', ref(DeliveryListItem), 'A page of a campaign\'s deliveries, newest first');

export const DeliveryInput = Type.Object({
  starts_at: Type.Optional(Type.String({ format: 'date-time', description: 'When to start (default now); a moment in the past starts at once' })),
  rate_per_second: Type.Optional(Type.Integer({
    minimum: 1, maximum: RATE_MAX, finite: true,
    description: `Messages per second across every server process (1–${RATE_MAX}); left out for as fast as the mail server takes them`,
  })),
}, { additionalProperties: false });

export const MessageDeliveryModel = Type.Object({
  id: Id(),
  user_name: Type.String(),
  user_email: Type.String({ format: 'email' }),
  type: Type.Union([Type.Literal('admin.messaging.mail'), Type.Literal('admin.messaging.notification')]),
  status: Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s))),
  sent_at: Nullable(DateTime, 'Null until sent'),
  opened: Type.Boolean({ description: 'Mail: the tracking pixel was fetched (an upper bound: some mail clients fetch images ahead). Notification: the user opened it' }),
  opened_at: Nullable(DateTime, 'The first opening'),
  failure_reason: Nullable(Type.String()),
  delivery_id: Id(),
  campaign_name: Type.String(),
  delivery_start_date: DateTime,
}, { $id: 'MessageDelivery', description: 'One message of a delivery to one user (spec 2.5)' });

export const MessageDeliveryList = namedListOf('message_deliveries', ref(MessageDeliveryModel), 'A page of messages, oldest first');

export const MessageDeliveryQuery = Type.Object({
  ...PageQuery,
  campaign_id: Type.Optional(Id()),
  delivery_id: Type.Optional(Id()),
});
