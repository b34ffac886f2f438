/** An injected clock for use-case tests: starts at a fixed instant and moves only when told. */
export interface FakeClock {
  /** Epoch ms, as `Date.now` would give it. */
  readonly now: () => number;
  advance(ms: number): void;
  iso(): string;
}

/** A clock at `start` (default 2026-11-20T10:00:00Z). */
export function fakeClock(start = Date.parse('2026-11-20T10:00:00.000Z')): FakeClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    iso: () => new Date(current).toISOString(),
  };
}
