import { sql, type SQL } from 'drizzle-orm';
import { comparisonSql, numberHolds, type Comparison } from '../db/filters.js';
import { businessEventTypeCounts as counts, businessEvents as events } from '../tables/events.js';
import { submissions } from '../tables/originations.js';
import { realmUsers as users } from '../tables/realms.js';
import { LOGIN_EVENT_TYPES, type Attribute } from './attributes.js';
import type { FilterNode } from './filters.js';

/**
 * Compiles a checked filter tree into one parameterized condition over `realm_users` (never text built
 * from a client's input: values are parameters, names come from the attribute catalog).
 *
 * Two-valued logic: every condition answers true or false, never NULL. A user without a value for an
 * attribute matches no comparison on it, `neq` included; `is_set` and `is_not_set` test presence; so
 * `not` is plain negation of its subtree (`{not: {eq: "CL"}}` holds for a user without a country,
 * `{neq: "CL"}` does not). Each leaf is `present AND predicate`, where the predicate is not NULL on a
 * present value, and groups combine only such leaves.
 *
 * The recursion is bounded by the depth limit `parseFilters` enforces before any tree gets here.
 */
export function filterSql(node: FilterNode, realmId: number, now: Date): SQL {
  switch (node.op) {
    case 'all': return node.children.length ? sql`(${sql.join(node.children.map((c) => filterSql(c, realmId, now)), sql` and `)})` : sql`true`;
    case 'any': return node.children.length ? sql`(${sql.join(node.children.map((c) => filterSql(c, realmId, now)), sql` or `)})` : sql`false`;
    case 'not': return sql`(not ${filterSql(node.child, realmId, now)})`;
    case 'condition': return conditionSql(node, realmId, now);
  }
}

/** The users of a realm a tree selects, as a condition over `realm_users`. */
export function segmentCondition(realmId: number, tree: FilterNode, now: Date): SQL {
  return sql`(${users.realmId} = ${realmId} and ${filterSql(tree, realmId, now)})`;
}

type Condition = Extract<FilterNode, { op: 'condition' }>;

const presence = (operator: string, present: SQL): SQL | null =>
  operator === 'is_set' ? present : operator === 'is_not_set' ? sql`(not ${present})` : null;

/** A leaf over a value that every user has or lacks: `present AND predicate`, or the presence test. */
function valueCondition(condition: Condition, value: SQL, present: SQL, now: Date): SQL {
  const { test, attribute } = condition;
  return presence(test.operator, present)
    ?? sql`(${present} and ${comparisonSql(attribute.kind!, value, test as Comparison, now)})`;
}

/** `cf -> key` guarded by its JSON type, so a stored value of another type reads as absent, never as an error. */
const FIELD_TYPES = { text: 'string', date: 'string', number: 'number', boolean: 'boolean' } as const;

function customFieldCondition(condition: Condition, key: string, kind: keyof typeof FIELD_TYPES, now: Date): SQL {
  const { operator, value: wanted } = condition.test as Comparison;
  // Equality of a text or a true/false is containment: one test instead of three, which the GIN index
  // on custom_fields answers and the planner estimates from the column's statistics.
  if ((kind === 'text' && operator === 'eq') || (kind === 'boolean' && operator === 'is')) {
    return sql`(${users.customFields} @> ${JSON.stringify({ [key]: wanted })}::jsonb)`;
  }
  const json = sql`(${users.customFields} -> ${key})`;
  const present = sql`(${json} is not null and jsonb_typeof(${json}) = ${FIELD_TYPES[kind]})`;
  const value = kind === 'number' ? sql`(case when ${present} then (${json})::numeric end)`
    : kind === 'boolean' ? sql`(case when ${present} then (${json})::boolean end)`
      : sql`(${users.customFields} ->> ${key})`;
  return valueCondition(condition, value, present, now);
}

/** Whether some row of `userIds` (a subquery answering `user_id`) is this user: a semi-join the planner hashes. */
const among = (userIds: SQL) => sql`exists (select 1 from (${userIds}) as matched where matched.user_id = ${users.id})`;

function conditionSql(condition: Condition, realmId: number, now: Date): SQL {
  const { attribute, test } = condition;
  switch (attribute.source) {
    case 'user': return userColumnCondition(condition, attribute, now);
    case 'custom_field': return customFieldCondition(condition, attribute.key, attribute.kind as keyof typeof FIELD_TYPES, now);
    case 'removed_field': return test.operator === 'is_not_set' ? sql`true` : sql`false`;
    case 'random_bucket': return valueCondition(condition, randomBucket, sql`true`, now);
    case 'submission_status': {
      const ofRealm = sql`select ${submissions.userId} as user_id from ${submissions} where ${submissions.realmId} = ${realmId}`;
      return presence(test.operator, among(ofRealm))
        ?? among(sql`${ofRealm} and ${comparisonSql('text', sql`${submissions.status}`, test as Comparison, now)}`);
    }
    case 'event_count': return eventCountCondition(condition, attribute.type, realmId, now);
    case 'event_last_at':
    case 'last_login': {
      const types = attribute.source === 'last_login' ? LOGIN_EVENT_TYPES : [attribute.type];
      const ofTypes = sql`${counts.realmId} = ${realmId} and ${counts.type} in (${sql.join(types.map((t) => sql`${t}`), sql`, `)})`;
      const present = among(sql`select ${counts.userId} as user_id from ${counts} where ${ofTypes}`);
      const tested = presence(test.operator, present);
      if (tested) return tested;
      const last = comparisonSql('timestamp', sql`max(${counts.lastAt})`, test as Comparison, now);
      return among(sql`select ${counts.userId} as user_id from ${counts} where ${ofTypes} group by ${counts.userId} having ${last}`);
    }
  }
}

/** `random_bucket`: Fibonacci hashing of the id, the high bits of id × 2654435761 mod 2^32 scaled to 0–99. */
const randomBucket = sql`((((${users.id})::bigint * 2654435761) % 4294967296) * 100 / 4294967296)`;

function userColumnCondition(condition: Condition, attribute: Extract<Attribute, { source: 'user' }>, now: Date): SQL {
  switch (attribute.column) {
    case 'email': return valueCondition(condition, sql`${users.email}`, sql`true`, now);
    case 'username': return valueCondition(condition, sql`${users.username}`, sql`(${users.username} is not null and ${users.username} <> '')`, now);
    case 'first_name': return valueCondition(condition, sql`${users.firstName}`, sql`(${users.firstName} <> '')`, now);
    case 'last_name': return valueCondition(condition, sql`${users.lastName}`, sql`(${users.lastName} <> '')`, now);
    case 'active': return valueCondition(condition, sql`${users.active}`, sql`true`, now);
    case 'created_at': return valueCondition(condition, sql`${users.createdAt}`, sql`true`, now);
  }
}

/**
 * How many events of a type the user has (all time, or within the last N days): a user without any
 * has 0, a value like any other. When 0 fails the comparison, the users are those whose count passes
 * it (a semi-join); when 0 passes it, they are all but those whose count fails it (an anti-join).
 */
function eventCountCondition(condition: Condition, type: string, realmId: number, now: Date): SQL {
  const { test, withinLastDays } = condition;
  if (test.operator === 'is_set') return sql`true`;
  if (test.operator === 'is_not_set') return sql`false`;
  const comparison = test as Comparison;
  const passes = (count: SQL) => comparisonSql('number', count, comparison, now);
  const whose = (holds: (count: SQL) => SQL) => {
    if (withinLastDays === undefined) {
      return among(sql`select ${counts.userId} as user_id from ${counts}
        where ${counts.realmId} = ${realmId} and ${counts.type} = ${type} and ${holds(sql`${counts.count}`)}`);
    }
    const since = new Date(now.getTime() - withinLastDays * 86_400_000);
    return among(sql`select ${events.userId} as user_id from ${events}
      where ${events.realmId} = ${realmId} and ${events.type} = ${type} and ${events.userId} is not null
        and ${events.createdAt} >= ${since.toISOString()}::timestamptz and ${events.createdAt} <= ${now.toISOString()}::timestamptz
      group by ${events.userId} having ${holds(sql`count(*)`)}`);
  };
  return numberHolds(comparison, 0) ? sql`(not ${whose((count) => sql`not ${passes(count)}`)})` : whose(passes);
}
