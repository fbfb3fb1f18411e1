import type { Field } from 'react-querybuilder';

/** The attribute types of the segment filters (README, "Filters") and the operators each takes. */
export type AttributeType = 'text' | 'number' | 'date' | 'boolean';

const common = ['is_set', 'is_not_set'];
export const operatorsOf: Record<AttributeType, string[]> = {
  text: ['eq', 'neq', 'contains', 'starts_with', ...common],
  number: ['eq', 'lt', 'gt', 'lte', 'gte', ...common],
  date: ['before', 'after', 'on', 'within_last_days', ...common],
  boolean: ['is', ...common],
};

const inputTypeOf: Record<AttributeType, string> = { text: 'text', number: 'number', date: 'date', boolean: 'checkbox' };

export interface CustomFieldLike { key: string; name: string; type: string }

function field(name: string, label: string, type: AttributeType): Field {
  return {
    name,
    label,
    inputType: inputTypeOf[type],
    valueEditorType: type === 'boolean' ? 'checkbox' : 'text',
    operators: operatorsOf[type].map((operator) => ({ name: operator, value: operator, label: operator })),
    defaultValue: type === 'boolean' ? true : '',
  };
}

const customType = (type: string): AttributeType =>
  type === 'number' ? 'number' : type === 'date' ? 'date' : type === 'checkbox' ? 'boolean' : 'text';

export type AttributeLabels = Record<'email' | 'username' | 'first_name' | 'last_name' | 'active' | 'created_at' | 'last_login_at' | 'count' | 'last_at', string>;

/** The builder's fields: the user's own attributes, the realm's custom fields and counts and dates of its event types. */
export function segmentFields(labels: AttributeLabels, customFields: CustomFieldLike[], eventTypes: string[]): Field[] {
  return [
    field('email', labels.email, 'text'),
    field('username', labels.username, 'text'),
    field('first_name', labels.first_name, 'text'),
    field('last_name', labels.last_name, 'text'),
    field('active', labels.active, 'boolean'),
    field('created_at', labels.created_at, 'date'),
    field('last_login_at', labels.last_login_at, 'date'),
    ...customFields.map((custom) => field(`custom_fields.${custom.key}`, custom.name, customType(custom.type))),
    ...eventTypes.flatMap((type) => [
      field(`events.${type}.count`, `${type} (${labels.count})`, 'number'),
      field(`events.${type}.last_at`, `${type} (${labels.last_at})`, 'date'),
    ]),
  ];
}

/** A value as the server reads it for the field's type (numbers as numbers). */
export function typedValue(field: Field | undefined, operator: string, value: unknown): unknown {
  if ((field?.inputType === 'number' || operator === 'within_last_days') && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}
