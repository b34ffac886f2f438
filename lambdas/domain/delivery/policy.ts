/**
 * What happens after a delivery attempt has been recorded: done, retry later, or give up; and how many
 * attempts a cycle, and cycles an event, may have.
 */
import { MAX_ATTEMPTS } from '#config/delivery';
import type { EventRecord } from '#domain/model';
import { delayAfterAttempt } from './retry-schedule';

/**
 * Delivery cycles one event may have: its first (at publish) and two more, each started by a redelivery,
 * a reset, a replay or an endpoint's recovery. Cycles are counted, not inferred from attempts: a cycle
 * that delivered at its first try used one attempt but is a cycle all the same, so the cap bounds how
 * often one event is sent again. A cycle that sent nothing (the account had no URL, its endpoint was
 * disabled) is not counted: the next one takes its place, so such events keep their cycles for when they
 * can be delivered. The cap also bounds the attempts, which live in the event item (DynamoDB caps it at
 * 400 KB): at most {@link MAX_ATTEMPTS} a cycle, each keeping at most 4 KiB of answer and URL together
 * (`answerBesideUrl`), so 60 attempts and a 64 KiB payload stay near 330 KB.
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
