/**
 * A clock for use-case tests: it stands still until a test moves it, so timestamps, expiry and cache
 * lifetimes are exact. `date` fits `() => Date` clocks, `epochMs` fits `() => number` ones.
 */
export class FakeClock {
  private ms: number;

  constructor(start: string | number = '2026-11-21T12:00:00.000Z') {
    this.ms = typeof start === 'number' ? start : Date.parse(start);
  }

  /** The current time as a Date. */
  readonly date = (): Date => new Date(this.ms);

  /** The current time in epoch milliseconds. */
  readonly epochMs = (): number => this.ms;

  /** The same as {@link epochMs}, named like `Date.now` for deps that take `now`. */
  readonly now = (): number => this.ms;

  /** The current time as ISO 8601 with milliseconds. */
  iso(): string {
    return new Date(this.ms).toISOString();
  }

  /** Moves the clock forward. */
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** A clock at `start` (default 2026-11-20T10:00:00Z), the start the endpoint-health tests assume. */
export function fakeClock(start = Date.parse('2026-11-20T10:00:00.000Z')): FakeClock {
  return new FakeClock(start);
}
