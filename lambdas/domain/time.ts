/**
 * Timestamps: stored as ISO 8601 UTC with milliseconds and shown as `YYYY-MM-DD HH:MM:SS` (the seed's
 * rendering; the API reads it back in `lambdas/http/timestamp-param.ts`); and the clock use-cases read.
 */

/**
 * Renders an ISO timestamp as `YYYY-MM-DD HH:MM:SS` in UTC. Milliseconds are cut, not rounded, so the
 * rendering never shows a second that has not begun yet.
 *
 * @throws RangeError when the text is not a timestamp `Date` can read
 */
export function renderTimestamp(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) throw new RangeError(`renderTimestamp: not a timestamp: ${JSON.stringify(iso)}`);
  const text = new Date(time).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 19)}`;
}

/** Where a use-case reads the time; tests inject a fixed or stepping one. */
export type Clock = () => Date;

/** The real clock. */
export const systemClock: Clock = () => new Date();

/** The current time as ISO 8601 UTC with milliseconds. */
export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}
