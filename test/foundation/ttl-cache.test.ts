import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../src/ttl-cache.js';

describe('the two-second caches', () => {
  const now = new Date('2026-01-15T10:00:00Z');
  const later = (ms: number) => new Date(now.getTime() + ms);

  it('keeps an entry for its time only', () => {
    const cache = new TtlCache<string>(2000, 10);
    cache.set('a', 'x', now);
    expect(cache.get('a', later(1999))).toBe('x');
    expect(cache.get('a', later(2000))).toBeUndefined();
  });

  it('drops exactly the entries carrying a tag', () => {
    const cache = new TtlCache<string>(2000, 10);
    cache.set('token:1', 'ana', now, ['user:1', 'realm:1']);
    cache.set('cookie:1', 'ana', now, ['user:1', 'realm:1']);
    cache.set('token:2', 'bob', now, ['user:2', 'realm:1']);
    cache.drop('user:1');
    expect([cache.get('token:1', now), cache.get('cookie:1', now), cache.get('token:2', now)]).toEqual([undefined, undefined, 'bob']);
    cache.drop('realm:1');
    expect(cache.get('token:2', now)).toBeUndefined();
  });

  it('forgets the old tags of a key set again', () => {
    const cache = new TtlCache<string>(2000, 10);
    cache.set('k', 'old', now, ['user:1']);
    cache.set('k', 'new', now, ['user:2']);
    cache.drop('user:1');
    expect(cache.get('k', now)).toBe('new');
  });
});
