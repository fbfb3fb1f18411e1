import { Type } from '@sinclair/typebox';
import { DateTime, Id, Int32, INT32_MAX, ref, Nullable } from '../http/models.js';

export const TASK_TYPES = ['input', 'pending_review', 'validation', 'confirmation'] as const;
export type TaskType = typeof TASK_TYPES[number];
export const QUESTION_TYPES = ['text', 'number', 'date', 'choice', 'file'] as const;
export type QuestionType = typeof QUESTION_TYPES[number];

/** Tasks the realm user completes (PUT .../tasks/{task_uid}); the others are completed by a reviewer. */
export const USER_TASKS: readonly string[] = ['input', 'confirmation'];

export const LIMITS = {
  name: 255, steps: 20, tasksPerStep: 50, questionsPerTask: 50, label: 500, content: 10_000, options: 50, option: 255,
  deadlineDays: 3650, extensionDays: 365, totalExtensionDays: 3650, reason: 1000, answer: 10_000, groupMembers: 100,
} as const;

/**
 * An integer or null, as one schema with a list of types: with type coercion on, a union would turn
 * 0 (out of the integer's range) into null.
 */
const IntOrNull = (options: { minimum: number; maximum: number; description: string }) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], finite: true, ...options });

const Name = (description: string) => Type.String({ minLength: 1, maxLength: LIMITS.name, description });

// ---- Originations (admin) ----

export const QuestionInput = Type.Object({
  id: Type.Optional(Id({ description: 'A question of this origination to keep (its id, answers and uploads stay); left out for a new one' })),
  label: Type.String({ minLength: 1, maxLength: LIMITS.label }),
  type: Type.Union(QUESTION_TYPES.map((t) => Type.Literal(t))),
  options: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.option }), {
    maxItems: LIMITS.options, description: 'The allowed answers of a choice question; none allows any text',
  })),
}, { additionalProperties: false });

export const TaskInput = Type.Object({
  uid: Type.Optional(Type.String({ format: 'uuid', description: 'A task of this origination to keep (its responses stay); left out for a new one' })),
  name: Name('The task\'s name'),
  type: Type.Union(TASK_TYPES.map((t) => Type.Literal(t))),
  content: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.content }), 'Text shown to the user on a pending review task while it waits')),
  questions: Type.Optional(Type.Array(QuestionInput, { maxItems: LIMITS.questionsPerTask, description: 'The form of an input task (at least one there); none on other tasks' })),
}, { additionalProperties: false });

export const StepInput = Type.Object({
  name: Name('The step\'s name'),
  tasks: Type.Array(TaskInput, { minItems: 1, maxItems: LIMITS.tasksPerStep }),
}, { additionalProperties: false });

const originationFields = {
  name: Name('The origination\'s name'),
  deadline_days: Type.Optional(IntOrNull({ minimum: 1, maximum: LIMITS.deadlineDays, description: 'Days a submission has from its start; null or left out for no deadline' })),
  steps: Type.Array(StepInput, { minItems: 1, maxItems: LIMITS.steps, description: 'In order; their tasks in order' }),
};

export const OriginationInput = Type.Object(originationFields, { additionalProperties: false });
export const OriginationChanges = Type.Partial(Type.Object(originationFields), { additionalProperties: false });

export const QuestionModel = Type.Object({
  id: Id({ description: 'The `question_id` of attachment uploads, and the key of its answer in a task\'s `fields`' }),
  label: Type.String(),
  type: Type.String({ description: QUESTION_TYPES.join(', ') }),
  options: Type.Array(Type.String()),
}, { $id: 'OriginationQuestion' });

export const OriginationModel = Type.Object({
  id: Id(),
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  deadline_days: Nullable(Type.Integer()),
  steps: Type.Array(Type.Object({
    name: Type.String(),
    tasks: Type.Array(Type.Object({
      uid: Type.String({ format: 'uuid' }),
      name: Type.String(),
      type: Type.String({ description: TASK_TYPES.join(', ') }),
      content: Nullable(Type.String()),
      questions: Type.Array(ref(QuestionModel)),
    })),
  })),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'Origination', description: 'A guided application process of a realm: steps of ordered tasks' });

export const OriginationParams = Type.Object({ realm_uid: Type.String(), id: Id({ description: 'The origination\'s id' }) });

// ---- Reviewer groups (admin) ----

export const GroupInput = Type.Object({
  name: Name('Unique in the realm regardless of case'),
  member_ids: Type.Optional(Type.Array(Id(), {
    maxItems: LIMITS.groupMembers, description: 'Team members who may review this realm\'s submissions; replaces the members when given',
  })),
}, { additionalProperties: false });

export const GroupChanges = Type.Partial(GroupInput, { additionalProperties: false });

export const GroupModel = Type.Object({
  id: Id(),
  name: Type.String(),
  members: Type.Array(Type.Object({ id: Id(), name: Type.String(), email: Type.String() })),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'ReviewerGroup', description: 'A group of team members who review the submissions of a realm' });

export const GroupParams = Type.Object({ realm_uid: Type.String(), id: Id({ description: 'The group\'s id' }) });

// ---- Submissions (spec 2.9–2.11) ----

const adminPerson = {
  id: Id({ description: 'The admin\'s id' }),
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
};

export const AssigneeModel = Type.Union([
  Type.Object({ type: Type.Literal('group'), id: Id({ description: 'The group\'s id' }), name: Type.String(), label: Type.String() }),
  Type.Object({ type: Type.Literal('user_in_group'), ...adminPerson, group_id: Id(), group_name: Type.String(), label: Type.String({ description: '`<admin name> (<group name>)`' }) }),
  Type.Object({ type: Type.Literal('user'), ...adminPerson, label: Type.String() }),
], { $id: 'Assignee', description: 'Spec 2.10: read `type` first, show `label`' });


// One schema with a list of types, not a union: with type coercion on, a union would turn 42 into "42".
export const AnswerValue = Type.Unsafe<string | number | null>({
  type: ['string', 'number', 'null'], maxLength: LIMITS.answer,
  description: 'text and choice: a string; number: a number; date: YYYY-MM-DD; file: an attachment id',
});

export const TaskResponseModel = Type.Object({
  task: Type.Object({
    uid: Type.String({ format: 'uuid' }),
    name: Type.String(),
    type: Type.String({ description: TASK_TYPES.join(', ') }),
    step_name: Type.String(),
    questions: Type.Optional(Type.Array(ref(QuestionModel), { description: 'On input tasks: the form to answer' })),
  }),
  status: Type.Union([Type.Literal('not_started'), Type.Literal('pending'), Type.Literal('completed')]),
  user_id: Id(),
  assignee_id: Nullable(Type.Integer({ description: 'The admin assigned (or who completed a review)' })),
  assignee_group_id: Nullable(Type.Integer({ description: 'The group assigned as a whole' })),
  assignee_context_group_id: Nullable(Type.Integer({ description: 'The group the assigned admin was picked from' })),
  assignee_label: Nullable(Type.String()),
  fields: Type.Optional(Type.Record(Type.String(), AnswerValue, {
    description: 'On input tasks: the answers by question id (a file answer is the attachment id, null once the file is deleted); {} until answered',
  })),
  content: Type.Optional(Nullable(Type.String({ description: 'On pending review tasks: the text shown while the review is pending' }))),
}, { $id: 'TaskResponse', description: 'Spec 2.11: one task of the submission\'s origination, in order' });

export const SubmissionModel = Type.Object({
  id: Id(),
  uuid: Type.String({ format: 'uuid' }),
  status: Type.Union([Type.Literal('not_started'), Type.Literal('pending'), Type.Literal('completed'), Type.Literal('canceled')]),
  progress: Type.String({ description: 'The share of completed tasks, as `25%`' }),
  due: Type.String({ description: 'Display text: the deadline and its status, or due_label' }),
  due_deadline_at: Nullable(Type.String({ format: 'date-time' })),
  due_label: Nullable(Type.String({ description: '`Not started`, or `-` without a deadline or once closed; null when due_deadline_at has a value' })),
  due_status_label: Nullable(Type.String({ description: '`(on track)`, `(due soon)` (within 2 days) or `(overdue)`; null unless pending with a deadline' })),
  due_extension_days: Nullable(Type.Integer({ description: 'Days granted; null without a deadline' })),
  created_at: DateTime,
  updated_at: DateTime,
  started_at: Nullable(Type.String({ format: 'date-time' })),
  origination_name: Type.String(),
  origination_uuid: Type.String({ format: 'uuid' }),
  cancellation_reason: Nullable(Type.String()),
  user: Type.Object({ id: Id(), uuid: Type.String({ format: 'uuid' }), name: Type.String(), first_name: Type.String(), last_name: Type.String() }),
  assignee: Nullable(ref(AssigneeModel)),
  tasks: Type.Array(ref(TaskResponseModel)),
}, { $id: 'Submission', description: 'Spec 2.9: a realm user\'s run through an origination' });

export const StartInput = Type.Object({
  user_id: Id({ description: 'The realm user' }),
  start: Type.Optional(Type.Boolean({ description: 'Default true: started now (pending, deadline running). False leaves it not_started until the first task is done' })),
}, { additionalProperties: false });

export const AssignInput = Type.Object({
  group_id: Type.Optional(IntOrNull({ minimum: 1, maximum: INT32_MAX, description: 'A reviewer group of the realm' })),
  admin_id: Type.Optional(IntOrNull({ minimum: 1, maximum: INT32_MAX, description: 'A team member (with group_id: a member of that group)' })),
}, { additionalProperties: false, description: 'group_id alone: the group; admin_id alone: the admin; both: the admin picked from the group; neither: unassigned' });

export const ExtendInput = Type.Object({
  days: Int32({ minimum: 1, maximum: LIMITS.extensionDays, description: `Days added to the deadline, 1 to ${LIMITS.extensionDays}` }),
}, { additionalProperties: false });

export const CancelInput = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: LIMITS.reason, description: 'Shown to the user as cancellation_reason' }),
}, { additionalProperties: false });

export const AnswerInput = Type.Object({
  fields: Type.Record(Type.String(), AnswerValue, {
    maxProperties: LIMITS.questionsPerTask,
    description: 'Input task: one answer per question, keyed by question id: text and choice a string, number a number, date `YYYY-MM-DD`, '
      + 'file the `id` of an attachment the user uploaded. Confirmation task: `{}`',
  }),
}, { additionalProperties: false });

export const SubmissionParams = Type.Object({ realm_uid: Type.String(), id: Id({ description: 'The submission\'s id' }) });
export const SubmissionTaskParams = Type.Object({ realm_uid: Type.String(), id: Id({ description: 'The submission\'s id' }), task_uid: Type.String() });
export const CustomerSubmissionParams = Type.Object({ realm_uid: Type.String(), uuid: Type.String({ description: 'The submission\'s uuid' }) });
export const CustomerTaskParams = Type.Object({ realm_uid: Type.String(), uuid: Type.String(), task_uid: Type.String() });
