import { describe, expect, it } from 'vitest';
import { SourceCache } from '../../src/shared/source-cache.js';

describe('the parsed-template cache', () => {
  const counting = () => {
    let made = 0;
    return { make: (value: string) => () => { made++; return value.toUpperCase(); }, made: () => made };
  };

  it('makes a value once per source', () => {
    const cache = new SourceCache<string>(100);
    const { make, made } = counting();
    expect(cache.get('abc', make('abc'))).toBe('ABC');
    expect(cache.get('abc', make('abc'))).toBe('ABC');
    expect(made()).toBe(1);
  });

  it('holds at most its bound of source characters, however many sources come', () => {
    const cache = new SourceCache<string>(100);
    const { make, made } = counting();
    for (let i = 0; i < 10; i++) cache.get(`${i}`.padEnd(20, 'x'), make('v'));
    // 5 sources of 20 characters fit in 100: the sixth emptied the cache, and the last ones are kept.
    cache.get('9'.padEnd(20, 'x'), make('v'));
    expect(made()).toBe(10);
    cache.get('0'.padEnd(20, 'x'), make('v'));
    expect(made()).toBe(11);
  });

  it('keeps no source longer than a quarter of its bound', () => {
    const cache = new SourceCache<string>(100);
    const { make, made } = counting();
    cache.get('y'.repeat(26), make('big'));
    cache.get('y'.repeat(26), make('big'));
    expect(made()).toBe(2);
  });
});
