import { describe, expect, it } from 'vitest';
import { toQuery, toTree, type SegmentTree } from '../../packages/console/src/areas/engagement/segment-query.js';

describe('segment tree ↔ query builder mapping', () => {
  const nested: SegmentTree = {
    all: [
      { attribute: 'first_name', operator: 'contains', value: 'Ana' },
      {
        any: [
          { attribute: 'custom_fields.country', operator: 'eq', value: 'CL' },
          { not: { all: [{ attribute: 'email', operator: 'is_set' }, { attribute: 'events.login.count', operator: 'gte', value: 2, within_last_days: 30 }] } },
          { any: [] },
        ],
      },
    ],
  };

  it('maps nested all/any groups to and/or rule groups', () => {
    const query = toQuery(nested);
    expect(query.combinator).toBe('and');
    expect(query.rules[0]).toEqual({ field: 'first_name', operator: 'contains', value: 'Ana' });
    const inner = query.rules[1];
    expect(inner).toMatchObject({ combinator: 'or' });
    expect((inner as { rules: unknown[] }).rules[1]).toMatchObject({ combinator: 'and', not: true });
  });

  it('round-trips nested groups unchanged', () => {
    expect(toTree(toQuery(nested))).toEqual(nested);
    const query = toQuery(nested);
    expect(toQuery(toTree(query))).toEqual(query);
  });

  it('drops the value of valueless operators and wraps a bare or negated condition in a group', () => {
    expect(toTree({ combinator: 'and', rules: [{ field: 'username', operator: 'is_not_set', value: 'x' }] })).toEqual({ all: [{ attribute: 'username', operator: 'is_not_set' }] });
    expect(toTree(toQuery({ not: { attribute: 'active', operator: 'is', value: true } } as SegmentTree))).toEqual({ not: { all: [{ attribute: 'active', operator: 'is', value: true }] } });
  });
});
