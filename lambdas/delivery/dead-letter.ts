/**
 * The dead-letter reconciler: a message SQS moved to the dead-letter queue goes back to the delivery
 * queue while its event has attempts left in its cycle, or its event settles `failed`.
 */
import type { DeliveryTarget } from '#domain/delivery-message';
import { defaultEndpoint } from '#domain/endpoints/endpoint';
import type { DeliveryLedger, DeliveryQueue, DirectoryStore, QueueMessage } from '#domain/ports';
import { runBatch } from './deliver-batch';
import { readTarget } from './deliver-event';
import { afterSettled, isOrdered } from './order';
import { attemptsLeft } from './retry-rule';

/** What the dead-letter reconciler needs. */
export interface ReconcileDeps {
  readonly events: DeliveryLedger;
  readonly queue: DeliveryQueue;
  /** The event's account: an ordered account's next events go on after a final failure. */
  readonly directory: Pick<DirectoryStore, 'getAccount' | 'advanceSettledThrough'>;
  readonly maxAttempts: number;
  /** Epoch ms. */
  readonly now: () => number;
}

/**
 * What happened to one dead-lettered message; `exhausted-ordered`: failed for good in an ordered account,
 * whose next events go on without it (as the consumer's `exhausted` with `ordered`).
 */
export type ReconcileOutcome = 'requeued' | 'exhausted' | 'exhausted-ordered' | 'settled';

/**
 * Decides the fate of a message that SQS moved to the dead-letter queue. Receive counts overcount
 * attempts (throttling, lease conflicts, crashes), so an event with attempts left in its cycle goes back
 * to the delivery queue; one without is marked `failed`. Nothing stays `pending` forever. A final failure
 * of an ordered account's event settles it in order, as the consumer's does: the watermark moves on and
 * the next waiting event is sent.
 */
export async function reconcileDeadLetter(
  deps: ReconcileDeps,
  target: DeliveryTarget,
): Promise<ReconcileOutcome> {
  // A routed endpoint's dead letter is not the event's own: this path never requeues it as the event's.
  if (target.endpointId !== undefined) return 'settled';
  const event = await readTarget(deps.events, target);
  if (event?.webhookStatus !== 'pending') return 'settled';
  if (attemptsLeft(event, deps.maxAttempts) === 0) {
    const failed = await deps.events.settlePending(event, 'failed');
    const account = await deps.directory.getAccount(event.account, { consistent: true });
    const endpoint = account && defaultEndpoint(account);
    if (account?.orgId !== event.orgId || !endpoint || !isOrdered(endpoint, event)) return 'exhausted';
    await afterSettled(deps, endpoint, { ...event, webhookStatus: 'failed' });
    return failed ? 'exhausted-ordered' : 'exhausted';
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
