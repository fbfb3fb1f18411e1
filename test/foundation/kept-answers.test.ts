import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { keptAnswers } from '../../src/http/kept-answers.js';
import { sharedCompilers } from '../../src/http/schema-compilers.js';

describe('answers made from kept values', () => {
  it('makes one frozen answer per kept value, anew when another argument differs', () => {
    let made = 0;
    const answerOf = keptAnswers((kept: { items: string[] }, page: number) => ({ items: kept.items, page, made: ++made }));
    const kept = { items: ['a'] };
    const first = answerOf(kept, 1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(answerOf(kept, 1)).toBe(first);
    expect(answerOf(kept, 2)).toMatchObject({ page: 2, made: 2 });
    expect(answerOf({ items: ['a'] }, 2)).toMatchObject({ page: 2, made: 3 });
  });

  it('writes the same text for a frozen answer, and each request\'s own for an answer made per request', () => {
    const schema = Type.Object({ name: Type.String() });
    const serialize = sharedCompilers.buildSerializer(undefined as never, undefined as never)(
      { schema, method: 'GET', url: '/kept-answers-test', httpStatus: '200' } as never) as (doc: unknown) => string;
    const kept = Object.freeze({ name: 'ana' });
    expect(serialize(kept)).toBe('{"name":"ana"}');
    expect(serialize(kept)).toBe('{"name":"ana"}');
    const fresh = { name: 'bob' };
    expect(serialize(fresh)).toBe('{"name":"bob"}');
    fresh.name = 'eve';
    expect(serialize(fresh)).toBe('{"name":"eve"}');
  });
});
