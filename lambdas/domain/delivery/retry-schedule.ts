/**
 * Waiting times between delivery attempts. A cycle has {@link MAX_ATTEMPTS} attempts, so 19 waits.
 */
import { MAX_ATTEMPTS, MAX_VISIBILITY_TIMEOUT_SECONDS } from '#config/delivery';

/** Number of waits in a schedule: one after each attempt but the last. */
export const RETRY_SCHEDULE_LENGTH = MAX_ATTEMPTS - 1;

/** Longest wait: 12 h, the largest visibility timeout SQS accepts. */
export const MAX_RETRY_DELAY_SECONDS = MAX_VISIBILITY_TIMEOUT_SECONDS;

const MINUTE = 60;
const HOUR = 3600;

/**
 * The default waits in seconds, increasing from 10 s to 12 h: about 54 hours from the first attempt to
 * the last, so a receiver that is down over a weekend night still gets its events.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [
  10,
  30,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  20 * MINUTE,
  30 * MINUTE,
  45 * MINUTE,
  HOUR,
  1.5 * HOUR,
  2 * HOUR,
  3 * HOUR,
  4 * HOUR,
  5 * HOUR,
  6 * HOUR,
  8 * HOUR,
  10 * HOUR,
  12 * HOUR,
];

/** A malformed retry schedule (the `RETRY_SCHEDULE` setting): a configuration fault. */
export class RetryScheduleError extends Error {
  constructor(reason: string) {
    super(`Invalid retry schedule: ${reason}`);
    this.name = 'RetryScheduleError';
  }
}

/**
 * Reads `"10,30,60,…"`: exactly {@link RETRY_SCHEDULE_LENGTH} comma-separated whole seconds, blanks
 * around items allowed, each from 0 to {@link MAX_RETRY_DELAY_SECONDS}, never decreasing.
 *
 * @throws RetryScheduleError naming the first bad item (1-based)
 */
export function parseRetrySchedule(text: string): number[] {
  const items = text.split(',').map((item) => item.trim());
  if (items.length !== RETRY_SCHEDULE_LENGTH) {
    throw new RetryScheduleError(
      `expected ${RETRY_SCHEDULE_LENGTH} comma-separated delays in seconds, got ${items.length}`,
    );
  }
  const delays: number[] = [];
  for (const [index, item] of items.entries()) {
    const position = index + 1;
    if (!/^[0-9]+$/.test(item)) {
      throw new RetryScheduleError(
        `delay ${position} (${JSON.stringify(item)}) is not a whole number of seconds`,
      );
    }
    const delay = Number(item);
    if (delay > MAX_RETRY_DELAY_SECONDS) {
      throw new RetryScheduleError(
        `delay ${position} (${delay} s) exceeds ${MAX_RETRY_DELAY_SECONDS} s, the longest SQS visibility timeout`,
      );
    }
    const previous = delays.at(-1);
    if (previous !== undefined && delay < previous) {
      throw new RetryScheduleError(
        `delay ${position} (${delay} s) is shorter than delay ${index} (${previous} s)`,
      );
    }
    delays.push(delay);
  }
  return delays;
}

/**
 * The wait after a failed attempt of the current cycle.
 *
 * @param attemptInCycle - 1 for the cycle's first attempt; the last attempt has no wait
 * @throws RangeError outside 1..schedule length
 */
export function delayAfterAttempt(schedule: readonly number[], attemptInCycle: number): number {
  const delay =
    Number.isInteger(attemptInCycle) && attemptInCycle >= 1 ? schedule[attemptInCycle - 1] : undefined;
  if (delay === undefined) {
    throw new RangeError(
      `no retry delay after attempt ${attemptInCycle}; attempts 1 to ${schedule.length} have one`,
    );
  }
  return delay;
}
