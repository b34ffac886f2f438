import { MAX_MESSAGE_DELAY_SECONDS } from '#config/delivery';
import type { DeliveryQueue, QueueMessage } from '#domain/ports';
import { type DeliveryDeps, type DeliveryOutcome, deliverEvent } from './deliver-event';
import { type MessageFate, runBatch } from './queue-batch';

/** What a batch needs beyond single deliveries. */
export interface BatchDeps extends DeliveryDeps {
  readonly queue: Pick<DeliveryQueue, 'postpone' | 'enqueue'>;
  /** A message postponed at this receive count or later is replaced by a fresh one (redrive limit). */
  readonly replaceAtReceiveCount: number;
  /** A message that would still wait past this age is replaced by a fresh one (queue retention). */
  readonly replaceAfterAgeSeconds: number;
  /** Observes each outcome (logs and metrics live in the handler). */
  readonly observe: (id: string, outcome: DeliveryOutcome) => void;
  /** Observes a message that could not be processed and will come back. */
  readonly observeError: (messageId: string, error: unknown) => void;
  /** Observes a message replaced by a fresh one. */
  readonly observeReplaced?: (id: string, receiveCount: number) => void;
}

/**
 * Delivers a batch concurrently and returns the ids of the messages to keep: those whose retry or
 * deferral was scheduled by moving their visibility timeout, and those that hit an unexpected error (they
 * come back after the queue's visibility timeout). Every other message is done and may be deleted.
 */
export function deliverBatch(deps: BatchDeps, messages: readonly QueueMessage[]): Promise<string[]> {
  return runBatch(
    messages,
    async (id, message) => {
      const outcome = await deliverEvent(deps, id, message.receiveCount);
      deps.observe(id, outcome);
      // A scheduled retry, a duplicate that came early, or a deferral: hide the message until it is due.
      if (outcome.kind !== 'retry' && outcome.kind !== 'not-due' && outcome.kind !== 'deferred')
        return 'done';
      return postpone(deps, id, message, outcome.retryAfterSeconds);
    },
    deps.observeError,
  );
}

/**
 * Hides the message for `seconds`, or, when it was received so often that another receive could take it
 * to the dead-letter queue, or it would outlive the queue's retention, sends a fresh message for the event
 * (at most 15 min delayed; an early one waits as `not-due`) and lets the old one be deleted.
 */
async function postpone(
  deps: BatchDeps,
  id: string,
  message: QueueMessage,
  seconds: number,
): Promise<MessageFate> {
  const ageSeconds = (deps.now() - message.sentAt) / 1000;
  if (
    message.receiveCount >= deps.replaceAtReceiveCount ||
    ageSeconds + seconds >= deps.replaceAfterAgeSeconds
  ) {
    await deps.queue.enqueue([id], Math.min(seconds, MAX_MESSAGE_DELAY_SECONDS));
    deps.observeReplaced?.(id, message.receiveCount);
    return 'done';
  }
  await deps.queue.postpone(message.receiptHandle, seconds);
  return 'keep';
}
