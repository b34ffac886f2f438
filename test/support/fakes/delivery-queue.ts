/** An in-memory {@link DeliveryQueue} that records what the use-cases asked of it. */

import type { QueuePull } from '#delivery/held-invocation-port';
import { encodeDeliveryMessage, type QueuedDelivery } from '#domain/delivery-message';
import type { EventRef } from '#domain/model';
import type { DeliveryQueue, QueueMessage } from '#domain/ports';

/** The fake; a held invocation pulls from {@link FakeDeliveryQueue.visible}. */
export class FakeDeliveryQueue implements DeliveryQueue, QueuePull {
  readonly sent: { id: string; delaySeconds: number; endpointId?: string }[] = [];
  /** The body of each message sent, in the order of {@link FakeDeliveryQueue.sent} (the codec's). */
  readonly bodies: string[] = [];
  readonly postponed: { receiptHandle: string; seconds: number }[] = [];
  /** Messages a pull may receive, first come first received. */
  readonly visible: QueueMessage[] = [];
  /** The `max` of each receive, in order. */
  readonly receives: number[] = [];
  /** The `waitSeconds` of each receive, in order (answers at once all the same: nothing else sends). */
  readonly receiveWaits: number[] = [];
  readonly deleted: string[] = [];

  async enqueue(events: readonly QueuedDelivery[], delaySeconds = 0): Promise<void> {
    for (const event of events) {
      const { endpointId } = event;
      this.sent.push({ id: event.id, delaySeconds, ...(endpointId === undefined ? {} : { endpointId }) });
      this.bodies.push(encodeDeliveryMessage(event));
    }
  }

  async postpone(receiptHandle: string, seconds: number): Promise<void> {
    this.postponed.push({ receiptHandle, seconds });
  }

  async receive(max: number, waitSeconds: number): Promise<QueueMessage[]> {
    this.receives.push(max);
    this.receiveWaits.push(waitSeconds);
    return this.visible.splice(0, max);
  }

  async delete(receiptHandles: readonly string[]): Promise<void> {
    this.deleted.push(...receiptHandles);
  }
}

/**
 * A received message for an event, with the codec's body: where the event is when given a ref, or an
 * `{"id"}` message (found through the id) when given an id.
 */
export function message(event: string | EventRef, options: Partial<QueueMessage> = {}): QueueMessage {
  const ref = typeof event === 'string' ? { id: event, orgId: '', account: '' } : event;
  return {
    messageId: `m-${ref.id}`,
    receiptHandle: `r-${ref.id}`,
    body: encodeDeliveryMessage(ref),
    receiveCount: 1,
    sentAt: Date.parse('2026-11-20T10:00:00.000Z'),
    ...options,
  };
}
