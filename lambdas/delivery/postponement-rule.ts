/**
 * When a delivery message that waits comes back: hidden for its wait, within SQS's limits, or replaced by
 * a fresh message once the old one nears the queue's redrive limit or its retention; after an unexpected
 * error, within seconds, never before what the failed handling left behind. Pure; `postponement.ts`
 * applies it.
 */
import { DELIVERY_QUEUE, MAX_MESSAGE_DELAY_SECONDS, QUEUE_RETENTION_SECONDS } from '#config/delivery';
import { cappedDoubling } from '#domain/backoff';
import type { QueueMessage } from '#domain/ports';

/**
 * Every deferral is a receive, and the queue dead-letters a message on its 21st. A message postponed at
 * this receive count or later is replaced by a fresh one (new receive count, new retention clock) and
 * the old one deleted, so deferrals never reach the dead-letter queue and its alarm.
 */
export const REPLACE_AT_RECEIVE_COUNT = DELIVERY_QUEUE.maxReceiveCount - 2;

/**
 * SQS deletes a message this long after it was first sent, however often it was postponed. A message that
 * would still be on the queue by then (one day of margin) is replaced by a fresh one instead.
 */
export const REPLACE_AFTER_AGE_SECONDS = QUEUE_RETENTION_SECONDS - 24 * 60 * 60;

/**
 * How soon a message whose handling hit an unexpected error (a read still throttled after the SDK's
 * retries, a store briefly unreachable) comes back, instead of after the queue's 720 s visibility timeout.
 * Its receive count is the only counter such errors have for free (counting them would add a write), so
 * the wait doubles with it from `firstSeconds` up to `maxSeconds`: a throttle of a few seconds costs a few
 * seconds (2, 4, 8, 16 s for the first receives), while a fault that lasts backs off to one read of the
 * message every 150 to 300 s from its 9th receive on (4 to 8.5 min in), rather than every 30 to 60 s: a
 * long outage does not multiply the reads (and visibility changes) on an already throttled table. A persistent fault still uses
 * up the message's 20 receives, within about 34 to 69 min (2 + 4 + … + 256 s, then 300 s for the 12 later
 * receives, each jittered to between half and all of it: 2,055 to 4,110 s), and reaches the dead-letter
 * queue and its reconciler as before (4 h), only sooner.
 */
export const ERROR_RETRY = { firstSeconds: 2, maxSeconds: 300 } as const;

/**
 * The least a message waits past a time its handling left behind ({@link ErroredHandling}): SQS brings
 * a message back only roughly on time and consumers' clocks differ, and one that comes back before the
 * event's lease ends is dropped as a duplicate and its event lost, so a whole second or two of margin,
 * not milliseconds.
 */
export const ERROR_RETRY_MARGIN_SECONDS = 2;

/** What a delivery that then threw left behind, which its message must not come back before. */
export interface ErroredHandling {
  /** Epoch ms: the end of the event's lease the handling took, if it took one. */
  readonly leaseUntil?: number | undefined;
  /** Epoch ms: a request went out then and its attempt is not recorded (the record threw, or was never reached). */
  readonly unrecordedSendAt?: number | undefined;
}

/**
 * The earliest a message whose handling threw may come back (epoch ms), or undefined when any time will do.
 *
 * - After the event's lease the handling took: until then the event looks taken by another consumer and
 *   the message would be dropped as a duplicate.
 * - One lease time (`leaseMs`, the consumer's timeout) after a request that went out unrecorded. The
 *   receiver has the webhook (most often with a 2xx), so sending it again has no hurry, and each resend is
 *   an unrecorded duplicate. The lease time rather than the schedule's first wait: it is the wait a later
 *   attempt's failed record already gets from its lease (taken before its request), so every unrecorded
 *   send waits alike, and it does not depend on the configured schedule, whose first wait may be 0 s and
 *   would resend at once.
 */
export function errorReturnNotBefore(handling: ErroredHandling, leaseMs: number): number | undefined {
  const afterSend = handling.unrecordedSendAt === undefined ? undefined : handling.unrecordedSendAt + leaseMs;
  if (afterSend === undefined || handling.leaseUntil === undefined) return afterSend ?? handling.leaseUntil;
  return Math.max(afterSend, handling.leaseUntil);
}

/**
 * Seconds before a message that hit an unexpected error comes back: the {@link ERROR_RETRY} wait for its
 * receive count, jittered to between half and all of it (consumers that met the same throttle do not
 * come back together), and never before `notBefore` ({@link errorReturnNotBefore}) plus
 * {@link ERROR_RETRY_MARGIN_SECONDS}.
 *
 * @param random - in [0, 1)
 * @param notBefore - epoch ms
 * @param now - epoch ms
 */
export function errorRetrySeconds(receiveCount: number, random: number, notBefore?: number, now = 0): number {
  const doublings = Math.max(0, Math.min(receiveCount, 31) - 1);
  const full = cappedDoubling(ERROR_RETRY.firstSeconds, doublings, ERROR_RETRY.maxSeconds);
  const jittered = Math.max(1, Math.ceil(full / 2 + (random * full) / 2));
  const waitOut =
    notBefore === undefined ? 0 : Math.ceil((notBefore - now) / 1000) + ERROR_RETRY_MARGIN_SECONDS;
  return Math.max(jittered, waitOut);
}

/** When a postponed message is replaced by a fresh one instead (the consumer injects them; tests lower them). */
export interface ReplacementLimits {
  /** A message postponed at this receive count or later is replaced: {@link REPLACE_AT_RECEIVE_COUNT}. */
  readonly replaceAtReceiveCount: number;
  /** A message that would still wait past this age is replaced: {@link REPLACE_AFTER_AGE_SECONDS}. */
  readonly replaceAfterAgeSeconds: number;
}

/** How a message that must wait `seconds` comes back. */
export type Postponement =
  /** Hide this message for `seconds` (its visibility timeout). */
  | { readonly kind: 'postpone'; readonly seconds: number }
  /**
   * Send a fresh message delayed by at most SQS's 15 min (an early one waits as not due) and let this
   * one be deleted.
   */
  | { readonly kind: 'replace'; readonly delaySeconds: number };

/**
 * Postpones the message, or replaces it when it was received so often that another receive could take it
 * to the dead-letter queue, or when it would outlive the queue's retention while it waits.
 *
 * @param now - epoch ms
 */
export function postponement(
  message: Pick<QueueMessage, 'receiveCount' | 'sentAt'>,
  seconds: number,
  now: number,
  limits: ReplacementLimits,
): Postponement {
  const ageSeconds = (now - message.sentAt) / 1000;
  if (
    message.receiveCount >= limits.replaceAtReceiveCount ||
    ageSeconds + seconds >= limits.replaceAfterAgeSeconds
  ) {
    return { kind: 'replace', delaySeconds: Math.min(seconds, MAX_MESSAGE_DELAY_SECONDS) };
  }
  return { kind: 'postpone', seconds };
}
