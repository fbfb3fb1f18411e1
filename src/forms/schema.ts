import { Type } from '@sinclair/typebox';
import { DateTime, Id, Int32, Nullable } from '../http/models.js';
import { PageQuery } from '../http/pagination.js';

export const FIELD_TYPES = ['text', 'long_text', 'email', 'number', 'date', 'single_choice', 'multiple_choice', 'checkbox', 'consent', 'file'] as const;
export type FieldType = typeof FIELD_TYPES[number];

/** The documented sizes a form's parts may reach. */
export const FORM_LIMITS = {
  name: 255, fields: 100, steps: 20, options: 100, label: 500, help: 2000, pattern: 200, text: 1000, longText: 10_000,
  notify: 10, success: 2000, url: 2048,
} as const;

const text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });
const Localized = (maxLength: number, description: string) =>
  Type.Record(Type.String({ maxLength: 20 }), Type.String({ maxLength }), { description, maxProperties: 20 });

export const FormParam = Type.Object({ form_uid: Type.String({ maxLength: 100, description: 'The form\'s uid' }) });
export const ResponseParams = Type.Object({ form_uid: Type.String({ maxLength: 100 }), id: Id({ description: 'The response\'s id' }) });
export const ResponseFileParams = Type.Object({
  ...ResponseParams.properties,
  field: Type.String({ maxLength: 64, description: 'The name of the form\'s file field' }),
});
export const RealmFormParams = Type.Object({ realm_uid: Type.String({ maxLength: 100 }), form_uid: Type.String({ maxLength: 100 }) });

const FieldShape = {
  name: text(64, 'Lower-case letters, digits and "_", starting with a letter: the key of its answers'),
  type: Type.Union(FIELD_TYPES.map((t) => Type.Literal(t))),
  required: Type.Optional(Type.Boolean({ description: 'A consent field is always required' })),
  labels: Localized(FORM_LIMITS.label, 'The label per locale; the default locale\'s is required'),
  help: Type.Optional(Localized(FORM_LIMITS.help, 'A help text per locale')),
  options: Type.Optional(Type.Array(Type.Object({ value: text(200), labels: Localized(FORM_LIMITS.label, 'The option\'s label per locale') }), {
    maxItems: FORM_LIMITS.options, description: 'The choices of a single or multiple choice field',
  })),
  min: Type.Optional(Type.Number({ description: 'Number: the smallest value. Multiple choice: the fewest choices' })),
  max: Type.Optional(Type.Number({ description: 'Number: the largest value. Multiple choice: the most choices' })),
  min_length: Type.Optional(Int32({ minimum: 0 })),
  max_length: Type.Optional(Int32({ minimum: 0, description: `Text: at most ${FORM_LIMITS.text} (long text ${FORM_LIMITS.longText}), the default` })),
  pattern: Type.Optional(text(FORM_LIMITS.pattern, 'A regular expression the whole text answer must match; nested quantifiers are refused')),
  show_if: Type.Optional(Type.Object({
    field: text(64, 'An earlier field'),
    value: Type.Optional(text(200, 'Shown when the earlier field\'s answer is (or, for multiple choice, includes) this value; absent: when it has any answer')),
  }, { description: 'Conditional visibility: a hidden field is neither required nor stored' })),
};

export const FieldModel = Type.Object(FieldShape, { $id: 'FormField', description: 'A field of a form' });

const StepModel = Type.Object({
  labels: Localized(FORM_LIMITS.label, 'The step\'s title per locale'),
  fields: Type.Array(text(64), { maxItems: FORM_LIMITS.fields, description: 'The names of its fields, in order' }),
});

const Confirmation = Type.Union([Type.Object({
  email_field: Nullable(text(64, 'The email field whose answer gets the mail; null: the signed-in user\'s address')),
}), Type.Null()], { description: 'A confirmation mail to the respondent, or null for none' });

const Spam = Type.Object({
  min_fill_seconds: Int32({ minimum: 0, maximum: 3600, description: 'A response sent sooner after its form token was issued is spam (default 3)' }),
  rate_limit_per_hour: Int32({ minimum: 0, maximum: 100_000, description: 'Submissions per client address and hour, caught ones included; 0 turns it off (default 10)' }),
});

export const FormModel = Type.Object({
  uid: Type.String(),
  name: Type.String(),
  realm_uid: Nullable(Type.String()),
  access: Type.Union([Type.Literal('public'), Type.Literal('realm_users')]),
  default_locale: Type.String(),
  locales: Type.Array(Type.String()),
  fields: Type.Array(Type.Unsafe({ $ref: 'FormField#' })),
  steps: Type.Array(StepModel),
  success_message: Type.Record(Type.String(), Type.String()),
  redirect_url: Nullable(Type.String()),
  opens_at: Nullable(DateTime),
  closes_at: Nullable(DateTime),
  max_responses: Nullable(Type.Integer()),
  response_count: Type.Integer({ description: 'Responses accepted so far (spam not counted)' }),
  notify_emails: Type.Array(Type.String()),
  confirmation: Confirmation,
  spam: Spam,
  active: Type.Boolean(),
  url: Type.String({ description: 'The hosted page' }),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'Form', description: 'A form: its fields, steps, rules and where its responses go' });

export const FormInput = Type.Object({
  uid: Type.Optional(text(1000, 'Lower-case letters, digits, "-" and "_" (at most 100); fixed once created')),
  name: Type.Optional(text(1000)),
  realm_uid: Type.Optional(Nullable(text(100), 'The realm the form belongs to (fixed once created); needed for `realm_users`')),
  access: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('realm_users')])),
  default_locale: Type.Optional(text(20, 'en or es')),
  locales: Type.Optional(Type.Array(text(20), { maxItems: 2 })),
  fields: Type.Optional(Type.Array(Type.Object(FieldShape), { maxItems: FORM_LIMITS.fields })),
  steps: Type.Optional(Type.Array(StepModel, { maxItems: FORM_LIMITS.steps, description: 'Absent or empty: one step holding every field' })),
  success_message: Type.Optional(Localized(FORM_LIMITS.success, 'Shown after a response, per locale')),
  redirect_url: Type.Optional(Nullable(text(FORM_LIMITS.url), 'Instead of the message: a path or an https address')),
  opens_at: Type.Optional(Nullable(DateTime)),
  closes_at: Type.Optional(Nullable(DateTime)),
  max_responses: Type.Optional(Nullable(Int32({ minimum: 1 }))),
  notify_emails: Type.Optional(Type.Array(text(254), { maxItems: FORM_LIMITS.notify })),
  confirmation: Type.Optional(Confirmation),
  spam: Type.Optional(Type.Partial(Spam)),
  active: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

export const FormListQuery = Type.Object({ ...PageQuery, realm_uid: Type.Optional(text(100)) });

const Answer = Type.Unknown({ description: 'Text, a number, true/false, a list of choices, or a file {name, size, content_type}' });

export const ResponseModel = Type.Object({
  id: Type.Integer(),
  form_uid: Type.String(),
  status: Type.Union([Type.Literal('received'), Type.Literal('spam')]),
  spam_reason: Nullable(Type.String(), 'honeypot, too_fast, bad_token or replayed_token'),
  answers: Type.Record(Type.String(), Answer),
  email: Nullable(Type.String()),
  user_id: Nullable(Type.Integer()),
  locale: Type.String(),
  submitted_at: DateTime,
}, { $id: 'FormResponse', description: 'A response to a form' });

export const ResponseListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Type.Union([Type.Literal('received'), Type.Literal('spam')])),
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
  field: Type.Optional(text(64, 'With `value`: only responses whose answer to this field is (or includes) `value`')),
  value: Type.Optional(text(1000)),
});

export const ResponseStatusInput = Type.Object({ status: Type.Union([Type.Literal('received'), Type.Literal('spam')]) }, { additionalProperties: false });

export const ErasureInput = Type.Object({
  email: Type.Optional(text(254)),
  user_id: Type.Optional(Id()),
}, { additionalProperties: false, description: 'One of the two' });

export const ErasureResult = Type.Object({ erased: Type.Integer({ description: 'How many responses were deleted' }) });

/** What every door answers for a response, real or caught alike. */
export const Accepted = Type.Object({
  status: Type.Literal('received'),
  message: Type.String({ description: 'The form\'s success message in the response\'s language' }),
  redirect_url: Nullable(Type.String()),
}, { $id: 'FormAccepted', description: 'The same for every response the form takes (a caught one too): no id' });

export const PublicFormModel = Type.Object({
  uid: Type.String(),
  name: Type.String(),
  locale: Type.String(),
  locales: Type.Array(Type.String()),
  fields: Type.Array(Type.Unsafe({ $ref: 'FormField#' })),
  steps: Type.Array(StepModel),
  honeypot: Type.String({ description: 'The name of the field that must be sent empty (people never see it)' }),
  token: Type.String({ description: 'A single-use form token: send it back as `token` with the response' }),
  closes_at: Nullable(DateTime),
}, { $id: 'PublicForm', description: 'A form as a front end renders it, with a form token' });

export const AnswerInput = Type.Object({
  token: Type.Optional(text(500)),
  answers: Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), { maxProperties: FORM_LIMITS.fields }),
  locale: Type.Optional(text(20)),
}, { additionalProperties: true, description: 'The answers by field name, the form token and the honeypot field (empty)' });
