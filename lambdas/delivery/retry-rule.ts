/**
 * The retry schedule: how many attempts a cycle and cycles an event may have, the waits between a cycle's
 * attempts (default 10 s to 12 h, `RETRY_SCHEDULE`), what follows an attempt (done, retried after the
 * schedule's wait or the receiver's `Retry-After`, or failed), and when a scheduled attempt is due. Pure;
 * the attempt's phases (`deliver-event.ts`) apply it.
 */
import { CONSUMER_TIMEOUT_SECONDS, MAX_ATTEMPTS, MAX_VISIBILITY_TIMEOUT_SECONDS } from '#config/delivery';
import type { EventRecord } from '#domain/model';

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

/**
 * Delivery cycles one event may have: its first (at publish) and two more, each started by a redelivery,
 * a reset, a replay or an endpoint's recovery. Cycles are counted, not inferred from attempts: a cycle
 * that delivered at its first try used one attempt but is a cycle all the same, so the cap bounds how
 * often one event is sent again. A cycle that sent nothing (the account had no URL, its endpoint was
 * disabled) is not counted: the next one takes its place, so such events keep their cycles for when they
 * can be delivered. The cap also bounds the attempts, which live in the event item (DynamoDB caps it at
 * 400 KB): at most {@link MAX_ATTEMPTS} a cycle, each keeping at most 4 KiB of answer and URL together
 * (`answerBesideUrl`), so 60 attempts and a payload of at most 128 KiB (`MAX_PAYLOAD_BYTES_CEILING`) stay
 * under it.
 */
export const MAX_CYCLES = 3;

/** The outcome of an attempt for the event's status and the queue message. */
export type DeliveryStep =
  | { readonly status: 'success' }
  | { readonly status: 'pending'; readonly retryAfterSeconds: number }
  | { readonly status: 'failed' };

/** Input of {@link nextStep}. */
export interface NextStepInput {
  /** Attempts over all cycles, including the one just recorded. */
  readonly webhookRetries: number;
  /** Attempts before the current cycle began. */
  readonly cycleBase: number;
  /** Whether the receiver answered 2xx. */
  readonly outcomeOk: boolean;
  /** The receiver answered `410 Gone`: the endpoint is disabled, so the cycle ends with this attempt. */
  readonly gone?: boolean;
  readonly schedule: readonly number[];
  /** Attempts per cycle (the consumer's injected limit). */
  readonly maxAttempts: number;
}

/**
 * Decides after an attempt: `success` on 2xx; otherwise `pending` with the schedule's wait while the
 * cycle has attempts left, `failed` after its last (or after a `410 Gone`).
 *
 * @throws RangeError when the counters say no attempt of this cycle was recorded, or the schedule is
 *   too short for `maxAttempts`
 */
export function nextStep(input: NextStepInput): DeliveryStep {
  const { maxAttempts } = input;
  const attempt = input.webhookRetries - input.cycleBase;
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(
      `nextStep: retries ${input.webhookRetries} and cycle base ${input.cycleBase} leave no recorded attempt`,
    );
  }
  if (input.outcomeOk) return { status: 'success' };
  if (attempt >= maxAttempts || input.gone === true) return { status: 'failed' };
  return { status: 'pending', retryAfterSeconds: delayAfterAttempt(input.schedule, attempt) };
}

/**
 * Attempts the current cycle still allows, from the counters alone (the status is the caller's check).
 */
export function attemptsLeft(
  record: Pick<EventRecord, 'webhookRetries' | 'cycleBase'>,
  maxAttempts: number,
): number {
  return Math.max(0, maxAttempts - (record.webhookRetries - record.cycleBase));
}

/** Whether an HTTP status confirms delivery: 200 to 299, as the seed says. */
export function isSuccessStatus(httpStatus: number): boolean {
  return Number.isInteger(httpStatus) && httpStatus >= 200 && httpStatus <= 299;
}

/**
 * SQS keeps a message hidden at most 12 hours from its receive, so a retry can be postponed by at most
 * that minus the time the consumer may already have spent on it.
 */
export const MAX_POSTPONE_SECONDS = MAX_VISIBILITY_TIMEOUT_SECONDS - CONSUMER_TIMEOUT_SECONDS;

/**
 * The scheduled message reappears only after its visibility timeout, which is set after the due time
 * was recorded, so it is never early by the recording consumer's clock; this margin covers clock
 * differences between consumers and nothing more (a wider one would let duplicates jump the schedule).
 */
export const DUE_TOLERANCE_MS = 100;

/**
 * Seconds until an event's next attempt is due, or undefined when it is due now (within
 * {@link DUE_TOLERANCE_MS}): a duplicate message that comes early waits for the scheduled retry.
 *
 * @param nextAttemptAt - epoch ms the event's last failure scheduled, if any
 */
export function secondsUntilDue(nextAttemptAt: number | undefined, now: number): number | undefined {
  if (nextAttemptAt === undefined || nextAttemptAt - now <= DUE_TOLERANCE_MS) return undefined;
  return Math.ceil((nextAttemptAt - now) / 1000);
}

/** The latest due time a consumer's lease may find at `now` (epoch ms): a retry is never brought forward. */
export function dueBy(now: number): number {
  return now + DUE_TOLERANCE_MS;
}

/**
 * The wait before the next attempt: the schedule's, or the receiver's `Retry-After` when longer, clamped
 * to {@link MAX_POSTPONE_SECONDS} (so the 12 h step, or a receiver's longer wait, still fits SQS).
 */
export function retryWaitSeconds(scheduledSeconds: number, receiverWaitSeconds?: number): number {
  return Math.min(Math.max(scheduledSeconds, receiverWaitSeconds ?? 0), MAX_POSTPONE_SECONDS);
}

/**
 * Seconds a `Retry-After` header asks for (delta seconds or an HTTP date), or undefined when absent or
 * unreadable. Only 429 and 503 answers carry a meaningful one.
 */
export function parseRetryAfter(status: number, value: string | undefined, now: number): number | undefined {
  if ((status !== 429 && status !== 503) || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** What follows an attempt. */
export interface AfterAttempt {
  readonly status: DeliveryStep['status'];
  /** Seconds until the next attempt: 0 unless `pending`. */
  readonly retryAfterSeconds: number;
  /** Epoch ms the next attempt of a `pending` event is due. */
  readonly nextAttemptAt?: number | undefined;
  /** Seconds the receiver asked to wait (`Retry-After` on 429/503), if it did. */
  readonly receiverWaitSeconds?: number | undefined;
}

/**
 * What follows an attempt of `event` (its counters before the attempt) that the receiver answered with
 * `status` (0: no answer) and `retryAfter`: `success` on 2xx; otherwise another attempt after the
 * schedule's wait, or the receiver's `Retry-After` when longer, while the cycle has attempts left;
 * `failed` after its last, or after a `410 Gone` (the endpoint is disabled and this event settles with the
 * attempt that showed it).
 *
 * @param now - epoch ms
 */
export function afterAttempt(
  event: Pick<EventRecord, 'webhookRetries' | 'cycleBase'>,
  answer: { readonly status: number; readonly retryAfter?: string | undefined },
  policy: Pick<NextStepInput, 'schedule' | 'maxAttempts'>,
  now: number,
): AfterAttempt {
  const receiverWaitSeconds = parseRetryAfter(answer.status, answer.retryAfter, now);
  const step = nextStep({
    webhookRetries: event.webhookRetries + 1,
    cycleBase: event.cycleBase,
    outcomeOk: isSuccessStatus(answer.status),
    gone: answer.status === 410,
    schedule: policy.schedule,
    maxAttempts: policy.maxAttempts,
  });
  if (step.status !== 'pending') return { status: step.status, retryAfterSeconds: 0, receiverWaitSeconds };
  const retryAfterSeconds = retryWaitSeconds(step.retryAfterSeconds, receiverWaitSeconds);
  const nextAttemptAt = now + retryAfterSeconds * 1000;
  return { status: 'pending', retryAfterSeconds, nextAttemptAt, receiverWaitSeconds };
}
