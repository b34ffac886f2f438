/**
 * A handled message's return to the queue, as `postponement-rule.ts` decides: one that waits (a
 * scheduled retry, a duplicate that came early, a deferral) is hidden until it is due, or replaced by a
 * fresh one; one whose delivery threw comes back within seconds, never before what that delivery left
 * behind.
 */
import { type DeliveryTarget, targetRef } from '#domain/delivery-message';
import type { DeliveryQueue, QueueMessage } from '#domain/ports';
import {
  type ErroredHandling,
  errorRetrySeconds,
  errorReturnNotBefore,
  postponement,
  type ReplacementLimits,
} from './postponement-rule';

/** `done`: delete the message; `keep`: it comes back (its visibility was set, or it failed). */
export type MessageFate = 'done' | 'keep';

/** What returning messages to the queue needs. */
export interface PostponeDeps extends ReplacementLimits {
  readonly queue: Pick<DeliveryQueue, 'postpone' | 'enqueue'>;
  /** How long the consumer's lease on an event lasts (ms). */
  readonly leaseMs: number;
  readonly now: () => number;
  /** [0, 1): spreads the returns after errors; `Math.random` unless a test fixes it. */
  readonly random?: () => number;
  readonly observeError: (messageId: string, error: unknown) => void;
  /** Observes a message replaced by a fresh one. */
  readonly observeReplaced?: (id: string, receiveCount: number) => void;
}

/** Hides a message that must wait `seconds`, or replaces it by a fresh one ({@link postponement}). */
export async function postpone(
  deps: PostponeDeps,
  target: DeliveryTarget,
  message: QueueMessage,
  seconds: number,
): Promise<MessageFate> {
  const decision = postponement(message, seconds, deps.now(), deps);
  if (decision.kind === 'replace') {
    await deps.queue.enqueue([targetRef(target)], decision.delaySeconds);
    deps.observeReplaced?.(target.id, message.receiveCount);
    return 'done';
  }
  await deps.queue.postpone(message.receiptHandle, decision.seconds);
  return 'keep';
}

/**
 * Hides a message whose delivery threw for {@link errorRetrySeconds} rather than the queue's visibility
 * timeout; never replaced, so a persistent fault still uses up the message's receives and reaches the
 * dead-letter queue, whose reconciler decides. Best effort: when this fails too, it is kept all the same
 * and the visibility timeout brings it back.
 *
 * @param left - what the delivery left behind (a lease taken, a request sent but not recorded)
 */
export async function comeBackSoon(
  deps: PostponeDeps,
  message: QueueMessage,
  left: ErroredHandling,
): Promise<MessageFate> {
  const now = deps.now();
  const random = (deps.random ?? Math.random)();
  const notBefore = errorReturnNotBefore(left, deps.leaseMs);
  const seconds = errorRetrySeconds(message.receiveCount, random, notBefore, now);
  try {
    await deps.queue.postpone(message.receiptHandle, seconds);
  } catch (error) {
    deps.observeError(message.messageId, error);
  }
  return 'keep';
}
