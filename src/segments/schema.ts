import { Type } from '@sinclair/typebox';
import { DateTime, Id, Int32, ref, Nullable } from '../http/models.js';
import { RealmUserModel } from '../realms/schema.js';
import { ListQuery } from '../http/list-query.js';
import { MAX_DEPTH, MAX_NODES } from './filters.js';

const filtersDescription = 'A filter tree: {"all": [f, ...]}, {"any": [f, ...]}, {"not": f} or a condition '
  + '{"attribute", "operator", "value"} (an event count may add "within_last_days"). Attributes: email, username, first_name, '
  + 'last_name, active, created_at, last_login_at, custom_fields.<key>, events.<type>.count, events.<type>.last_at, random_bucket. '
  + 'Operators — text: eq, neq, contains, starts_with (both ignoring case), in; number and count: eq, lt, gt, lte, gte, between; '
  + 'date: before, after, on, between, within_last_days (dates YYYY-MM-DD, days in UTC); boolean: is; every type: is_set, is_not_set. '
  + 'A user without a value matches no comparison (neq included); not is plain negation. '
  + `At most ${MAX_DEPTH} levels deep and ${MAX_NODES} conditions and groups; anything else is refused with 422 naming the path of the bad node.`;

// Checked by the operation with a stack of its own (segments/filters.ts), not by the schema: a recursive
// schema would walk a hostile tree thousands of levels deep by recursion.
const Filters = Type.Object({}, { additionalProperties: true, description: filtersDescription, examples: [{ all: [{ attribute: 'first_name', operator: 'contains', value: 'Ana' }] }] });

export const SegmentModel = Type.Object({
  id: Id(),
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  realm_uid: Type.String({ description: 'The realm whose users the segment selects' }),
  filters: Filters,
  filters_summary: Type.String({ description: 'The filters in plain English' }),
  matches_count: Int32({ description: 'How many users match; refreshed in the background, at most five minutes old (see matches_counted_at)' }),
  matches_counted_at: DateTime,
  temporary: Type.Boolean({ description: 'Made by apply_filters: left out of lists and removed an hour after its creation' }),
  expires_at: Nullable(DateTime, 'When a temporary segment goes; null for the others'),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'Segment', description: 'A named filter over the users of a realm (spec 2.2)' });

export const SegmentInput = Type.Partial(Type.Object({
  name: Type.String({ description: 'Required on creation; at most 255 characters' }),
  realm_uid: Type.String({ description: 'Required on creation; cannot be changed afterwards' }),
  filters: Filters,
}), { additionalProperties: false });

export const FiltersInput = Type.Object({
  realm_uid: Type.String({ description: 'The realm whose users are matched' }),
  filters: Filters,
}, { additionalProperties: false });

export const ApplyFiltersInput = Type.Object({
  ...FiltersInput.properties,
  name: Type.Optional(Type.String({ description: 'The temporary segment\'s name (default "Temporary segment")' })),
}, { additionalProperties: false });

export const MatchesCount = Type.Object({ matches_count: Int32({ description: 'How many users of the realm match the filters now' }) });

export const MatchesPreview = Type.Object({
  matches_count: MatchesCount.properties.matches_count,
  users: Type.Array(ref(RealmUserModel), { description: 'The first ten matching users, in the order of the realm\'s user list (most recently changed first)' }),
}, { $id: 'SegmentMatchesPreview' });

export const SegmentIdParam = Type.Object({ id: Id({ description: 'The segment\'s id' }) });

export const SegmentListQuery = ListQuery({ searched: 'the name', sortable: ['name', 'created_at', 'updated_at', 'matches_count'], by: 'updated_at', order: 'desc' }, {
  realm_uid: Type.Optional(Type.String({ description: 'Only the segments of this realm' })),
});
