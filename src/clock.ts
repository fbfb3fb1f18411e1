/** The source of "now" for every time rule, injected so tests can move time instead of waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move: for tests of expiry rules. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-15T10:00:00Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  advanceMinutes(minutes: number): void {
    this.advance(minutes * 60_000);
  }
}
