import { describe, expect, it } from 'vitest';
import { FieldErrors } from '../../src/errors/index.js';
import { checkFieldValue, mergeFieldValues, type FieldDefinition } from '../../src/realms/field-values.js';

const field = (type: string, extra: Partial<FieldDefinition> = {}): FieldDefinition =>
  ({ key: 'f', type, options: [], required: false, unique: false, ...extra });

describe('custom field values', () => {
  it('accepts each type\'s values in their stored form', () => {
    expect(checkFieldValue(field('text'), 'hello')).toEqual({ ok: true, value: 'hello' });
    expect(checkFieldValue(field('paragraph'), 'line\nline')).toEqual({ ok: true, value: 'line\nline' });
    expect(checkFieldValue(field('number'), 42.5)).toEqual({ ok: true, value: 42.5 });
    expect(checkFieldValue(field('number'), ' -7 ')).toEqual({ ok: true, value: -7 });
    expect(checkFieldValue(field('date'), '2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    expect(checkFieldValue(field('checkbox'), false)).toEqual({ ok: true, value: false });
    expect(checkFieldValue(field('dropdown', { options: ['a', 'b'] }), 'b')).toEqual({ ok: true, value: 'b' });
    expect(checkFieldValue(field('choice', { options: ['x'] }), 'x')).toEqual({ ok: true, value: 'x' });
  });

  it('treats null and blank as a clear', () => {
    for (const type of ['text', 'number', 'date', 'checkbox', 'dropdown']) {
      expect(checkFieldValue(field(type), null)).toEqual({ ok: true, value: null });
      expect(checkFieldValue(field(type), '  ')).toEqual({ ok: true, value: null });
    }
  });

  it('refuses values that do not fit the type', () => {
    const refused: [string, unknown, Partial<FieldDefinition>?][] = [
      ['text', 12], ['text', 'x'.repeat(256)], ['paragraph', true],
      ['number', 'twelve'], ['number', '1e999'], ['number', true], ['number', Infinity],
      ['date', '2023-02-29'], ['date', '2024-13-01'], ['date', '15/01/2024'], ['date', '2024-01-15T10:00:00Z'], ['date', 20240115],
      ['checkbox', 'true'], ['checkbox', 1],
      ['dropdown', 'c', { options: ['a', 'b'] }], ['choice', 1, { options: ['1'] }],
    ];
    for (const [type, value, extra] of refused) {
      expect(checkFieldValue(field(type, extra), value).ok, `${type} ${JSON.stringify(value)}`).toBe(false);
    }
  });

  it('merges inputs into current values, naming each problem', () => {
    const fields = [field('text', { key: 'nick' }), field('number', { key: 'age', required: true }), field('date', { key: 'born' })];
    const errors = new FieldErrors();
    const merged = mergeFieldValues(fields, { nick: 'old', age: 3, gone: 'x' }, [{ key: 'nick', value: null }, { key: 'born', value: '2000-01-01' }], errors, false);
    expect(errors.all).toEqual([]);
    expect(merged).toEqual({ age: 3, born: '2000-01-01', gone: 'x' });

    const bad = new FieldErrors();
    mergeFieldValues(fields, {}, [{ key: 'age', value: 'x' }, { key: 'nope', value: 1 }], bad, false);
    expect(bad.all).toEqual([
      { field: 'custom_fields.age', messages: ['must be a number'] },
      { field: 'custom_fields.nope', messages: ['is not a custom field of this realm'] },
    ]);

    const missing = new FieldErrors();
    mergeFieldValues(fields, {}, [], missing, true);
    expect(missing.all).toEqual([{ field: 'custom_fields.age', messages: ["can't be blank"] }]);

    const cleared = new FieldErrors();
    mergeFieldValues(fields, { age: 4 }, [{ key: 'age', value: '' }], cleared, false);
    expect(cleared.all).toEqual([{ field: 'custom_fields.age', messages: ["can't be blank"] }]);
  });
});
