/**
 * The one shape of Herald's growing waits: a first wait doubled `times` times, at most `cap` (same unit
 * as `first`). Callers add their own jitter.
 */
export function cappedDoubling(first: number, times: number, cap: number): number {
  return Math.min(cap, first * 2 ** times);
}
