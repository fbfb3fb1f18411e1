import { describe, expect, it } from 'vitest';
import { dueOf } from '../../src/originations/due.js';

describe('a pending submission\'s due text', () => {
  it('writes its deadline as Intl.DateTimeFormat en-US does, in UTC, on every day of four years and at either end of a day', () => {
    const intl = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    const now = new Date('2020-01-01T00:00:00Z');
    for (let day = 0; day < 4 * 366; day++) {
      for (const at of [0, 24 * 3600_000 - 1]) {
        const deadline = new Date(now.getTime() + day * 24 * 3600_000 + at);
        const { due } = dueOf({ status: 'pending', deadlineAt: deadline, extensionDays: 0, hasDeadline: true }, now);
        expect(due).toBe(`${intl.format(deadline)} ${day === 0 && at === 0 ? '(overdue)' : day < 2 || (day === 2 && at === 0) ? '(due soon)' : '(on track)'}`);
      }
    }
  });
});
