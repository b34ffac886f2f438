/**
 * The port through which a held consumer invocation takes more messages from its own queue
 * (`held-invocation.ts`). The messages it receives are not in the event source's batch, so it settles
 * them itself: deletes the done ones, and postpones the waiting ones through `DeliveryQueue.postpone`.
 */
import type { QueueMessage } from '#domain/ports';

/** Receiving and deleting messages of the delivery queue outside the event source. */
export interface QueuePull {
  /**
   * Receives at most `max` visible messages, waiting up to `waitSeconds` for the first (a long poll:
   * it answers as soon as one is there; none is not an error); each is hidden for the queue's
   * visibility timeout, as the event source's are.
   */
  receive(max: number, waitSeconds: number): Promise<QueueMessage[]>;
  /** Deletes received messages by receipt handle (batched by the adapter); throws when any delete fails. */
  delete(receiptHandles: readonly string[]): Promise<void>;
}
