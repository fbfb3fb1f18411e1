import type { Field } from 'react-querybuilder';
import type { Translate } from '../../i18n/i18n';
import { operatorLabel, type Operator } from './segment-operators';

/** The attribute types of the segment filters (docs/features/segments.md, "Filters"). */
export type AttributeType = 'text' | 'number' | 'date' | 'boolean';

/** The operators the server takes for each type, in the order the builder offers them; a field with options compares them exactly. */
const presence: Operator[] = ['is_set', 'is_not_set'];
const operatorsOf: Record<AttributeType | 'options', Operator[]> = {
  text: ['eq', 'neq', 'contains', 'starts_with', 'in', ...presence],
  options: ['eq', 'neq', 'in', ...presence],
  number: ['eq', 'lt', 'gt', 'lte', 'gte', 'between', ...presence],
  date: ['before', 'after', 'on', 'between', 'within_last_days', ...presence],
  boolean: ['is', ...presence],
};

/** One of the values a field may hold, with the words it is shown in. */
export interface Choice { value: string; label: string }

/** A builder field with what its value control needs: the type and, for a dropdown or choice field, its options. */
export type SegmentField = Field & { kind: AttributeType; choices?: Choice[] };

export interface CustomFieldLike { key: string; name: string; type: string; options?: string[] }
export interface EventTypeLike { type: string; title: string }

function field(t: Translate, name: string, label: string, kind: AttributeType, choices?: Choice[]): SegmentField {
  const operators = operatorsOf[choices?.length ? 'options' : kind];
  return {
    name, label, kind, ...(choices?.length ? { choices } : {}),
    operators: operators.map((operator) => ({ name: operator, value: operator, label: operatorLabel(t, operator) })),
    defaultValue: kind === 'boolean' ? true : choices?.[0]?.value ?? '',
  };
}

/** The statuses a submission may have, in words (what `submissions.status` compares). */
const STATUSES = { not_started: 'originations.statusNotStarted', pending: 'originations.statusPending', completed: 'originations.statusCompleted', canceled: 'originations.statusCanceled' } as const;

const customType = (type: string): AttributeType =>
  type === 'number' ? 'number' : type === 'date' ? 'date' : type === 'checkbox' ? 'boolean' : 'text';

/**
 * The builder's fields: the user's own attributes, the realm's custom fields, the count and last time of each event type,
 * a submission's status and the random bucket.
 */
export function segmentFields(t: Translate, customFields: CustomFieldLike[], eventTypes: EventTypeLike[]): SegmentField[] {
  return [
    field(t, 'email', t('engagement.attrEmail'), 'text'),
    field(t, 'username', t('engagement.attrUsername'), 'text'),
    field(t, 'first_name', t('engagement.attrFirstName'), 'text'),
    field(t, 'last_name', t('engagement.attrLastName'), 'text'),
    field(t, 'active', t('engagement.attrActive'), 'boolean'),
    field(t, 'created_at', t('engagement.attrCreatedAt'), 'date'),
    field(t, 'last_login_at', t('engagement.attrLastLoginAt'), 'date'),
    ...customFields.map((custom) => field(t, `custom_fields.${custom.key}`, custom.name, customType(custom.type), custom.options?.map((option) => ({ value: option, label: option })))),
    ...eventTypes.flatMap(({ type, title }) => [
      field(t, `events.${type}.count`, t('engagement.eventCount', { event: title || type }), 'number'),
      field(t, `events.${type}.last_at`, t('engagement.eventLastAt', { event: title || type }), 'date'),
    ]),
    field(t, 'submissions.status', t('engagement.attrSubmissionStatus'), 'text', Object.entries(STATUSES).map(([value, key]) => ({ value, label: t(key) }))),
    field(t, 'random_bucket', t('engagement.attrRandomBucket'), 'number'),
  ];
}
