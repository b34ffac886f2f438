/**
 * The minutes notices are grouped by for the platform team's summary: every notice is filed under the UTC
 * minute of its `at` (`yyyy-mm-ddThh:mm`), so one minute's notices of every organization are read together.
 */

const MINUTE_MS = 60_000;

/**
 * How long after a minute ends its notices are taken as complete: a notice is decided (`at`) just before
 * its write, and the index that files it by minute is updated a moment after the write.
 */
export const MINUTE_SETTLE_MS = 60_000;

/** The UTC minute (`yyyy-mm-ddThh:mm`) an ISO timestamp falls in. */
export function noticeMinute(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) throw new RangeError(`noticeMinute: not a timestamp: ${JSON.stringify(iso)}`);
  return new Date(time).toISOString().slice(0, 16);
}

/** The minute `count` minutes after `minute` (before it when negative). */
export function addMinutes(minute: string, count: number): string {
  return noticeMinute(new Date(minuteStart(minute) + count * MINUTE_MS).toISOString());
}

/** The latest minute whose notices are complete at `now` (it ended {@link MINUTE_SETTLE_MS} ago or more). */
export function latestSettledMinute(now: Date): string {
  return addMinutes(noticeMinute(new Date(now.getTime() - MINUTE_SETTLE_MS).toISOString()), -1);
}

/** The minutes from `from` to `to`, both included, in order; none when `to` is before `from`. */
export function minutesBetween(from: string, to: string): string[] {
  const minutes: string[] = [];
  for (let minute = from; minute <= to; minute = addMinutes(minute, 1)) minutes.push(minute);
  return minutes;
}

function minuteStart(minute: string): number {
  const time = Date.parse(`${minute}:00.000Z`);
  if (Number.isNaN(time)) throw new RangeError(`not a minute: ${JSON.stringify(minute)}`);
  return time;
}
