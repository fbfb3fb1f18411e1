import { Type } from '@sinclair/typebox';
import { DateTime, Id, Int32, Nullable } from '../http/models.js';
import { PageQuery } from '../http/pagination.js';
import { MAX_EVENT_TYPES } from './event-types.js';
import { MAX_URL_LENGTH } from '../net/outbound.js';


// "all" first: with type coercion, the array branch would turn "all" into ["all"].
const RealmUids = Type.Union([Type.Literal('all'), Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 })], {
  description: 'The realms whose events it receives, or "all" (every realm, and the events of no realm)',
});

const endpointProperties = {
  id: Id(),
  url: Type.String({ description: 'Where the signed POSTs go' }),
  description: Type.String(),
  event_types: Type.Array(Type.String(), { description: 'The types it receives (GET /webhooks/event_types)' }),
  realm_uids: RealmUids,
  active: Type.Boolean({ description: 'Whether deliveries are sent; false when an admin or the server turned it off' }),
  disabled_reason: Nullable(Type.String(), 'Why the server turned it off (a 410 answer, five days of failures); null otherwise'),
  disabled_at: Nullable(DateTime, 'When the server turned it off'),
  failing_since: Nullable(DateTime, 'Since when every attempt has failed; null after a success'),
  previous_secret_expires_at: Nullable(DateTime, 'After a rotation, until when the previous secret signs beside the new one'),
  created_at: DateTime,
  updated_at: DateTime,
};

export const WebhookEndpointModel = Type.Object(endpointProperties, {
  $id: 'WebhookEndpoint', description: 'An endpoint receiving signed POSTs of events (Standard Webhooks). Its secret is never shown again after creation or rotation.',
});

export const WebhookEndpointWithSecret = Type.Object({
  ...endpointProperties,
  secret: Type.String({ description: 'The signing secret (`whsec_` and base64): shown in this answer only' }),
}, { $id: 'WebhookEndpointWithSecret', description: 'An endpoint with its new secret, answered once on creation and on rotation' });

export const WebhookEndpointInput = Type.Partial(Type.Object({
  url: Type.String({ description: `Required on creation: an http(s) URL without credentials, at most ${MAX_URL_LENGTH} characters; an IP address in a private, loopback or link-local range is refused unless OUTBOUND_ALLOW_PRIVATE=1; a name that resolves to one is refused when sending` }),
  description: Type.String({ description: 'At most 1,000 characters' }),
  event_types: Type.Array(Type.String({ maxLength: 255 }), { maxItems: MAX_EVENT_TYPES, description: 'Required on creation: at least one type of GET /webhooks/event_types' }),
  realm_uids: RealmUids,
  active: Type.Boolean({ description: 'Default true; setting it true again clears disabled_reason and failing_since' }),
}), { additionalProperties: false });

export const WebhookAttemptModel = Type.Object({
  attempted_at: DateTime,
  outcome: Type.String({ description: 'succeeded, failed (an answer outside 2xx, redirects included), timeout, refused (a private address) or error (no answer)' }),
  status_code: Nullable(Int32(), 'The answer\'s status; null without an answer'),
  duration_ms: Int32(),
  error: Nullable(Type.String(), 'What went wrong without an answer'),
  response: Nullable(Type.String(), 'The beginning of the answer\'s body'),
});

export const WebhookDeliveryModel = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  webhook_id: Type.String({ description: 'The webhook-id header: the same on every attempt' }),
  event_type: Type.String(),
  status: Type.String({ description: 'pending, succeeded or failed (every attempt of the schedule failed)' }),
  attempts_count: Int32(),
  next_attempt_at: Nullable(DateTime, 'When it is tried next; null once succeeded or failed'),
  last_attempt_at: Nullable(DateTime, 'When it was last tried'),
  last_status_code: Nullable(Int32()),
  created_at: DateTime,
  attempts: Type.Array(WebhookAttemptModel, { description: 'Every attempt, oldest first' }),
}, { $id: 'WebhookDelivery', description: 'One event sent to one endpoint, and its attempts' });

export const EventTypeModel = Type.Object({
  type: Type.String(),
  kind: Type.String({ description: 'admin (changes made through the APIs), business (built-in business events) or custom (a realm\'s own business events)' }),
  description: Type.String(),
  realm_uids: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'For a custom type, the realms that have recorded it; null otherwise' }),
});

export const EventTypeList = Type.Object({ event_types: Type.Array(EventTypeModel) });

export const WebhookIdParam = Type.Object({ id: Id({ description: 'The endpoint\'s id' }) });

export const DeliveryIdParam = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, finite: true, description: 'The delivery\'s id' }) });

export const DeliveryListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Type.String({ description: 'Only deliveries with this status: pending, succeeded or failed' })),
});
