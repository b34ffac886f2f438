import { type DeliveryTarget, targetRef } from '#domain/delivery/message';
import { postponement, type ReplacementLimits } from '#domain/delivery/postponement';
import type { DeliveryQueue, QueueMessage } from '#domain/ports';
import { type DeliveryDeps, type DeliveryOutcome, deliverEvent } from './deliver-event';
import { DeliveryContext } from './delivery-context';
import { type MessageFate, runBatch } from './queue-batch';

/** What a batch needs beyond single deliveries. */
export interface BatchDeps extends DeliveryDeps, ReplacementLimits {
  readonly queue: Pick<DeliveryQueue, 'postpone' | 'enqueue'>;
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
 * come back after the queue's visibility timeout). Every other message is done and may be deleted. The
 * batch reads each account and organization of its events once, fresh (its {@link DeliveryContext}).
 */
export function deliverBatch(deps: BatchDeps, messages: readonly QueueMessage[]): Promise<string[]> {
  const context = new DeliveryContext(deps.directory, deps.sealer, deps.endpointSecrets);
  return runBatch(
    messages,
    async (target, message) => {
      const outcome = await deliverEvent(deps, target, message.receiveCount, context);
      deps.observe(target.id, outcome);
      // A scheduled retry, a duplicate that came early, or a deferral: hide the message until it is due.
      const waits = ['retry', 'not-due', 'deferred', 'waiting'] as const;
      if (!waits.some((kind) => kind === outcome.kind) || !('retryAfterSeconds' in outcome)) return 'done';
      return postpone(deps, target, message, outcome.retryAfterSeconds);
    },
    deps.observeError,
  );
}

/** Applies the {@link postponement} decision: the message is hidden, or replaced by a fresh one. */
async function postpone(
  deps: BatchDeps,
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
