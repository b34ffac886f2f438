import type { DeliveryTarget } from '#domain/delivery/message';
import { attemptsLeft } from '#domain/delivery/policy';
import type { DeliveryQueue, EventStore, QueueMessage } from '#domain/ports';
import { readTarget, runBatch } from './queue-batch';

/** What the dead-letter reconciler needs. */
export interface ReconcileDeps {
  readonly events: EventStore;
  readonly queue: DeliveryQueue;
  readonly maxAttempts: number;
}

/** What happened to one dead-lettered message. */
export type ReconcileOutcome = 'requeued' | 'exhausted' | 'settled';

/**
 * Decides the fate of a message that SQS moved to the dead-letter queue. Receive counts overcount
 * attempts (throttling, lease conflicts, crashes), so an event with attempts left in its cycle goes back
 * to the delivery queue; one without is marked `failed`. Nothing stays `pending` forever.
 */
export async function reconcileDeadLetter(
  deps: ReconcileDeps,
  target: DeliveryTarget,
): Promise<ReconcileOutcome> {
  const event = await readTarget(deps.events, target);
  if (event?.webhookStatus !== 'pending') return 'settled';
  if (attemptsLeft(event, deps.maxAttempts) === 0) {
    await deps.events.settlePending(event, 'failed');
    return 'exhausted';
  }
  await deps.queue.enqueue([event]);
  return 'requeued';
}

/** What a batch of dead letters needs beyond single reconciliations. */
export interface ReconcileBatchDeps extends ReconcileDeps {
  readonly observe: (id: string, outcome: ReconcileOutcome) => void;
  readonly observeError: (messageId: string, error: unknown) => void;
}

/** Reconciles a batch of dead letters on the consumers' one batch path; returns the messages to keep. */
export function reconcileBatch(
  deps: ReconcileBatchDeps,
  messages: readonly QueueMessage[],
): Promise<string[]> {
  return runBatch(
    messages,
    async (target) => {
      deps.observe(target.id, await reconcileDeadLetter(deps, target));
      return 'done';
    },
    deps.observeError,
  );
}
